import { quoteQuerySchema, quoteResultSchemaOf } from '../../schemas/swap'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import type { NetworkName } from '../networkNames'
import { QUOTE_RPC_CAP } from '../rpcCallCaps'
import { quoteSwap } from '../swap/quoteSwap'

// The routes of every network are built here, one module per operation (lib/networks/
// operations.ts), and each network's handler file under functions/ is `npm run networks`'s one
// line calling it: a network is its entry in the table, not a copy of these.

/** GET /api/v1/swap/quote/<network>. */
export function quoteRoute(network: NetworkName) {
  return defineHandler({
    auth: 'none',
    rpcBudget: rpcBudget(QUOTE_RPC_CAP),
    query: quoteQuerySchema,
    // A network whose quote carries no router call: the result schema strips it.
    result: quoteResultSchemaOf(network),
    run: ({ query }) => quoteSwap({ network, ...query }),
  })
}
