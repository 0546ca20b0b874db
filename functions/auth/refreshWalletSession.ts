import { rotateSession } from '../../lib/auth/sessions'
import { walletRefreshGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
import { sessionTokensSchema } from '../../schemas/session'

export async function refreshWalletSession(principal: Principal) {
  return rotateSession(principal)
}

export const handler = defineHandler({
  auth: walletRefreshGuard,
  result: sessionTokensSchema,
  run: ({ principal }) => refreshWalletSession(principal),
})
