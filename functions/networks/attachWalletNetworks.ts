import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
import { attachNetworks } from '../../lib/markets/attachNetworks'
import { type AttachNetworksBody, attachNetworksBodySchema } from '../../schemas/networks'
import { type EmptyResult, emptyResultSchema } from '../../schemas/session'

export async function attachWalletNetworks(
  principal: Principal,
  { networkIds }: AttachNetworksBody,
): Promise<EmptyResult> {
  await attachNetworks(principal.subject, networkIds)
  return {}
}

export const handler = defineHandler({
  auth: walletGuard,
  body: attachNetworksBodySchema,
  result: emptyResultSchema,
  run: ({ principal, body }) => attachWalletNetworks(principal, body),
})
