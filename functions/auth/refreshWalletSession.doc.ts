import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { WALLET, tokenPair } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Rotates a wallet session: the refresh token (in the Authorization header) is spent and a new pair is answered. A spent refresh token presented again later revokes its token family.',
  errors: [],
  example: async () => ({ result: await tokenPair('wallet', WALLET, 2) }),
}
