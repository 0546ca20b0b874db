import { endSession } from '../../lib/auth/sessions'
import { accountGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import type { Principal } from '../../lib/auth/principal'
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
