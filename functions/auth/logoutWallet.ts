import { endSession } from '../../lib/auth/sessions'
import { walletGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal, SessionGate } from '../../lib/http/types'
import { emptyResultSchema } from '../../schemas/session'

export async function logoutWallet(principal: Principal, session: SessionGate) {
  await endSession(principal, session)
  return {}
}

export const handler = defineHandler({
  auth: walletGuard,
  // The conditional delete is the session check: one DynamoDB call.
  sessionRead: 'route',
  result: emptyResultSchema,
  run: ({ principal, session }) => logoutWallet(principal, session),
})
