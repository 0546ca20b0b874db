import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { ALTCHAIN, cakeForWbnb } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'An exact quote on altchain: the best router path of up to 3 hops for the amount in, and the minimum out after slippage.',
  errors: [422],
  example: {
    query: {
      amount: '40',
      address0: ALTCHAIN.cake,
      decimals0: 18,
      address1: ALTCHAIN.wbnb,
      decimals1: 18,
      slippageBps: 50,
    },
    result: { ...cakeForWbnb.result.quote, gasPriceWei: 1_000_000_000 },
  },
}
