import { type RouteDoc, SIGNED_ROUTE } from '../../lib/openapi/routeDoc'
import { KEY_PARAMS, cakeForWbnb, submitExample, txResult } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "Swaps a token for another on altchain, signed with `{key}`; an approval of the router is sent and mined first when the allowance is short. Answers the swap's transaction hash.",
  ...SIGNED_ROUTE,
  example: async () => ({
    params: KEY_PARAMS,
    body: cakeForWbnb.body,
    result: txResult(await submitExample(cakeForWbnb)),
  }),
}
