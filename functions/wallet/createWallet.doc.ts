import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { TEST_PHRASE, WALLET, WALLET_KEY } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "The address and private key at m/44'/60'/0'/0/{index} of a phrase. Nothing is stored.",
  errors: [],
  example: {
    body: { mnemonic: TEST_PHRASE, index: 3 },
    result: { address: WALLET, privateKey: WALLET_KEY },
  },
}
