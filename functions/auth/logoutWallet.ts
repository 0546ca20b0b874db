import { endSession } from '../../lib/auth/sessions'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
import { emptyResultSchema } from '../../schemas/session'

export async function logoutWallet(principal: Principal) {
  await endSession(principal)
  return {}
}

export const handler = defineHandler({
  auth: walletGuard,
  result: emptyResultSchema,
  run: ({ principal }) => logoutWallet(principal),
})
