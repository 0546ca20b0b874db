import { checkCredentials } from '../../lib/auth/checkCredentials'
import { issueDeviceToken } from '../../lib/auth/deviceToken'
import { startSession } from '../../lib/auth/sessions'
import { clientLimit } from '../../lib/http/clientLimit'
import { defineHandler } from '../../lib/http/defineHandler'
import {
  type AccountLoginResult,
  accountLoginResultSchema,
  type LoginBody,
  loginBodySchema,
} from '../../schemas/account'

export async function loginAccount(
  credentials: LoginBody,
  sourceIp: string,
): Promise<AccountLoginResult> {
  const { account, checks } = await checkCredentials(credentials, sourceIp)
  const [token, device] = await Promise.all([
    startSession({ audience: 'account', subject: account.accountId, releasing: checks }),
    issueDeviceToken(credentials.username),
  ])
  return { token, device }
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('login'),
  body: loginBodySchema,
  result: accountLoginResultSchema,
  run: ({ body, sourceIp }) => loginAccount(body, sourceIp),
})
