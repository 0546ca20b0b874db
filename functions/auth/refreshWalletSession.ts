import { rotateSession } from '../../lib/auth/sessions'
import { walletRefreshGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/http/types'
import { sessionTokensSchema } from '../../schemas/session'

export async function refreshWalletSession(principal: Principal) {
  return rotateSession(principal)
}

export const handler = defineHandler({
  auth: walletRefreshGuard,
  result: sessionTokensSchema,
  run: ({ principal }) => refreshWalletSession(principal),
})
