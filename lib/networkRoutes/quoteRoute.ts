import { quoteQuerySchema, quoteResultSchemaOf } from '../../schemas/swap'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import type { NetworkName } from '../networkNames'
import { QUOTE_RPC_CAP } from '../rpcCallCaps'
import { quoteSwap } from '../swap/quoteSwap'

// The routes of every network are built here, one module per operation (lib/networks/
// operations.ts); the operation's one handler file under functions/ builds it for the network
// its function serves (NETWORK): a network is its entry in the table, not a copy of these.

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
