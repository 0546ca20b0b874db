import type { RouteDoc } from '../../lib/openapi/routeDoc'
import {
  EXAMPLE_SIGNER,
  NONCE,
  SIGN_IN_MESSAGE,
  WALLET,
  tokenPair,
} from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Signs a wallet in with its signature of the nonce message: 65 bytes for an account, up to 8 KB for a contract wallet (EIP-1271, ERC-6492). Answers an access and a refresh token.',
  errors: [429],
  credentials: true,
  example: async () => ({
    body: {
      address: WALLET,
      signature: await EXAMPLE_SIGNER.signMessage({ message: SIGN_IN_MESSAGE }),
      nonce: NONCE,
    },
    result: await tokenPair('wallet', WALLET, 1),
  }),
}
