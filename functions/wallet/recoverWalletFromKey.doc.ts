import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { WALLET, WALLET_KEY } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description: 'The address of a private key, and the key in canonical form. Nothing is stored.',
  errors: [],
  example: {
    body: { privateKey: WALLET_KEY.slice(2) },
    result: { address: WALLET, privateKey: WALLET_KEY },
  },
}
