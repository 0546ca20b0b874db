import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { ACCOUNT_ID, tokenPair } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Rotates an account session: the refresh token (in the Authorization header) is spent and a new pair is answered.',
  errors: [],
  example: async () => ({ result: { token: await tokenPair('account', ACCOUNT_ID, 2) } }),
}
