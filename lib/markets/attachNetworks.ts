import { queryNetworks } from '../db/network'
import { attachWalletNetworks } from '../db/walletNetwork'
import { NotFound } from '../errors'

/** Attaches networks to a wallet by id; any unknown id is a 404 and nothing is attached. */
export async function attachNetworks(wallet: string, networkIds: readonly string[]): Promise<void> {
  const known = await queryNetworks()
  const unknown = [...new Set(networkIds)].filter(
    (id) => !known.some((network) => network.id === id),
  )
  if (unknown.length > 0) throw new NotFound(`unknown network id: ${unknown.join(', ')}`)
  await attachWalletNetworks(
    wallet,
    known.filter((network) => networkIds.includes(network.id)),
  )
}
