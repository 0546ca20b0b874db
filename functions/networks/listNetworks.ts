import { queryNetworks } from '../../lib/db/network'
import { defineHandler } from '../../lib/http/defineHandler'
import { type ListNetworksResult, listNetworksResultSchema } from '../../schemas/networks'

export async function listNetworks(): Promise<ListNetworksResult> {
  const networks = await queryNetworks()
  return { networks: networks.map(({ id, network }) => ({ id, network })) }
}

export const handler = defineHandler({
  auth: 'none',
  result: listNetworksResultSchema,
  run: () => listNetworks(),
})
