import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { RECOVERED, TEST_PHRASE, keyOf } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "The address and private key at m/44'/60'/0'/0/{index} of an existing phrase. Nothing is stored.",
  errors: [],
  example: {
    body: { mnemonic: TEST_PHRASE },
    result: { address: RECOVERED.address, privateKey: keyOf(RECOVERED) },
  },
}
