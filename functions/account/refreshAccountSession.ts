import { rotateSession } from '../../lib/auth/sessions'
import { accountRefreshGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { SessionGate } from '../../lib/http/sessionGate'
import type { Principal } from '../../lib/http/types'
import { type AccountTokenResult, accountTokenResultSchema } from '../../schemas/account'

export async function refreshAccountSession(
  principal: Principal,
  session?: SessionGate,
): Promise<AccountTokenResult> {
  const token = await rotateSession(principal, session)
  return { token }
}

export const handler = defineHandler({
  auth: accountRefreshGuard,
  // The rotation's conditional transaction is the session check: one DynamoDB call.
  sessionRead: 'route',
  result: accountTokenResultSchema,
  run: ({ principal, session }) => refreshAccountSession(principal, session),
})
