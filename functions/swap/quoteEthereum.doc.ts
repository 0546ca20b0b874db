import { toHex } from 'viem'
import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { ETHEREUM, WALLET, linkForUsdcQuote } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'An exact quote on ethereum, with the router call data that performs the swap to `recipient` (20-minute deadline) and its value.',
  errors: [422],
  example: {
    query: {
      amount: '40',
      address0: ETHEREUM.link,
      decimals0: 18,
      address1: ETHEREUM.usdc,
      decimals1: 6,
      slippageBps: 50,
      recipient: WALLET,
    },
    result: {
      ...linkForUsdcQuote.quote,
      calldata: linkForUsdcQuote.call.data,
      value: toHex(linkForUsdcQuote.call.value),
      gasPriceWei: 24_000_000_000,
    },
  },
}
