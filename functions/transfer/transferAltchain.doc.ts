import { type RouteDoc, SIGNED_ROUTE } from '../../lib/openapi/routeDoc'
import {
  KEY_PARAMS,
  altchainTransfer,
  submitExample,
  txResult,
} from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Sends the native coin or a token on altchain, signed with `{key}`, and answers the transaction hash.',
  ...SIGNED_ROUTE,
  example: async () => ({
    params: KEY_PARAMS,
    body: altchainTransfer.body,
    result: txResult(await submitExample(altchainTransfer)),
  }),
}
