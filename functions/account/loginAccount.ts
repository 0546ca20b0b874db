import { checkCredentials } from '../../lib/auth/checkCredentials'
import { startSession } from '../../lib/auth/sessions'
import { clientLimit } from '../../lib/http/clientLimit'
import { defineHandler } from '../../lib/http/defineHandler'
import {
  type AccountTokenResult,
  accountTokenResultSchema,
  type LoginBody,
  loginBodySchema,
} from '../../schemas/account'

export async function loginAccount(
  credentials: LoginBody,
  sourceIp: string,
): Promise<AccountTokenResult> {
  const { accountId } = await checkCredentials(credentials, sourceIp)
  const token = await startSession({ audience: 'account', subject: accountId })
  return { token }
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('login'),
  body: loginBodySchema,
  result: accountTokenResultSchema,
  run: ({ body, sourceIp }) => loginAccount(body, sourceIp),
})
