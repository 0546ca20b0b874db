import { walletGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal, SessionGate } from '../../lib/http/types'
import { attachNetworks } from '../../lib/markets/attachNetworks'
import { type AttachNetworksBody, attachNetworksBodySchema } from '../../schemas/networks'
import { type EmptyResult, emptyResultSchema } from '../../schemas/session'

export async function attachWalletNetworks(
  principal: Principal,
  session: SessionGate,
  { networkIds }: AttachNetworksBody,
): Promise<EmptyResult> {
  await attachNetworks(principal.subject, networkIds, session)
  return {}
}

export const handler = defineHandler({
  auth: walletGuard,
  // The attaching transaction checks the session too: one DynamoDB call in all.
  sessionRead: 'route',
  body: attachNetworksBodySchema,
  result: emptyResultSchema,
  run: ({ principal, session, body }) => attachWalletNetworks(principal, session, body),
})
