import { type RouteDoc, SIGNED_ROUTE } from '../../lib/openapi/routeDoc'
import { KEY_PARAMS, linkForUsdc, submitExample, txResult } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "Swaps on ethereum (either side may be the native coin), signed with `{key}`; an approval of the router is sent and mined first when the allowance is short. Answers the swap's transaction hash.",
  ...SIGNED_ROUTE,
  example: async () => ({
    params: KEY_PARAMS,
    body: linkForUsdc.body,
    result: txResult(await submitExample(linkForUsdc)),
  }),
}
