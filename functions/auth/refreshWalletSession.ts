import { rotateSession } from '../../lib/auth/sessions'
import { walletRefreshGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { SessionGate } from '../../lib/http/sessionGate'
import type { Principal } from '../../lib/http/types'
import { sessionTokensSchema } from '../../schemas/session'

export async function refreshWalletSession(principal: Principal, session?: SessionGate) {
  return rotateSession(principal, session)
}

export const handler = defineHandler({
  auth: walletRefreshGuard,
  // The rotation's conditional transaction is the session check: one DynamoDB call.
  sessionRead: 'route',
  result: sessionTokensSchema,
  run: ({ principal, session }) => refreshWalletSession(principal, session),
})
