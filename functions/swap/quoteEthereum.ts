import { QUOTE_RPC_CALLS } from '../../lib/constants'
import { clientLimit } from '../../lib/http/clientLimit'
import { defineHandler } from '../../lib/http/defineHandler'
import { quoteSwap } from '../../lib/swap/quoteSwap'
import { ethereumQuoteResultSchema, type QuoteQuery, quoteQuerySchema } from '../../schemas/swap'

export async function quoteEthereum(query: QuoteQuery) {
  return quoteSwap({ network: 'ethereum', ...query })
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('rpc', QUOTE_RPC_CALLS),
  query: quoteQuerySchema,
  result: ethereumQuoteResultSchema,
  run: ({ query }) => quoteEthereum(query),
})
