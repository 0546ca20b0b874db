import { endSession } from '../../lib/auth/sessions'
import { accountGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal, SessionGate } from '../../lib/http/types'
import { type EmptyResult, emptyResultSchema } from '../../schemas/session'

export async function logoutAccount(
  principal: Principal,
  session: SessionGate,
): Promise<EmptyResult> {
  await endSession(principal, session)
  return {}
}

export const handler = defineHandler({
  auth: accountGuard,
  // The conditional delete is the session check: one DynamoDB call.
  sessionRead: 'route',
  result: emptyResultSchema,
  run: ({ principal, session }) => logoutAccount(principal, session),
})
