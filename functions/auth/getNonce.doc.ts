import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { NONCE, SIGN_IN_MESSAGE, WALLET } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'A sign-in nonce for the address (valid 5 minutes) and the exact EIP-4361 message to sign with it. Asking again does not invalidate an outstanding nonce.',
  errors: [],
  example: { params: { address: WALLET }, result: { nonce: NONCE, message: SIGN_IN_MESSAGE } },
}
