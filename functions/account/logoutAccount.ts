import { endSession } from '../../lib/auth/sessions'
import { accountGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/http/types'
import { type EmptyResult, emptyResultSchema } from '../../schemas/session'

export async function logoutAccount(principal: Principal): Promise<EmptyResult> {
  await endSession(principal)
  return {}
}

export const handler = defineHandler({
  auth: accountGuard,
  result: emptyResultSchema,
  run: ({ principal }) => logoutAccount(principal),
})
