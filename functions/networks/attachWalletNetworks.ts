import { walletGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/http/types'
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
