import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { ACCOUNT_ID, EXAMPLE_CREDENTIALS, tokenPair } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Signs an account in with username and password. Answers an access and a refresh token.',
  errors: [429],
  credentials: true,
  example: async () => ({
    body: EXAMPLE_CREDENTIALS,
    result: { token: await tokenPair('account', ACCOUNT_ID, 1) },
  }),
}
