import { QUOTE_RPC_CALLS } from '../../lib/constants'
import { clientLimit } from '../../lib/http/clientLimit'
import { defineHandler } from '../../lib/http/defineHandler'
import { quoteSwap } from '../../lib/swap/quoteSwap'
import { altchainQuoteResultSchema, type QuoteQuery, quoteQuerySchema } from '../../schemas/swap'

export async function quoteAltchain(query: QuoteQuery) {
  return quoteSwap({ network: 'altchain', ...query })
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('rpc', QUOTE_RPC_CALLS),
  query: quoteQuerySchema,
  // The altchain quote carries no calldata: the result schema strips it.
  result: altchainQuoteResultSchema,
  run: ({ query }) => quoteAltchain(query),
})
