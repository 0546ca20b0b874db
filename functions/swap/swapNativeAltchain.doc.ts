import { type RouteDoc, SIGNED_ROUTE } from '../../lib/openapi/routeDoc'
import { KEY_PARAMS, bnbForCake, submitExample, txResult } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Swaps between the native coin and a token on altchain, signed with `{key}` (which must control the signed-in wallet), and answers the transaction hash once the node accepted it.',
  ...SIGNED_ROUTE,
  example: async () => ({
    params: KEY_PARAMS,
    body: bnbForCake.body,
    result: txResult(await submitExample(bnbForCake)),
  }),
}
