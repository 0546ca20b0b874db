import { rotateSession } from '../../lib/auth/sessions'
import { accountRefreshGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
import { type AccountTokenResult, accountTokenResultSchema } from '../../schemas/account'

export async function refreshAccountSession(principal: Principal): Promise<AccountTokenResult> {
  const token = await rotateSession(principal)
  return { token }
}

export const handler = defineHandler({
  auth: accountRefreshGuard,
  result: accountTokenResultSchema,
  run: ({ principal }) => refreshAccountSession(principal),
})
