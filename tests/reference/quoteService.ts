import type { Context } from 'aws-lambda'
import type { HttpEvent } from '../../lib/http/types'
import type { NetworkName } from '../../lib/networkNames'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'
import { declaredHandler } from '../support/declaredHandler'
import { httpEvent, invoke } from '../support/httpEvent'

// The service as a client meets it, in-process: the network's quote handler (found by its route
// in serverless.yml), with the whole middy chain, so a 5xx is the envelope's status, as over HTTP.

type Handler = (event: HttpEvent, context: Context) => Promise<unknown>

export interface QuoteHop {
  protocol: 'v2' | 'v3'
  pool: string
  fee?: number
  tokenIn: string
  tokenOut: string
  amountIn: string
  amountOut: string
}

export interface QuoteAnswer {
  status: number
  /** The result of a 200, else the error's message. */
  result?: {
    amountOut: string
    route: { shareBps: number; hops: QuoteHop[] }[]
    blockNumber: number
  }
  error?: string
}

export interface QuoteQuery {
  amount: string
  address0: string
  decimals0: number
  address1: string
  decimals1: number
  /** Exact output (DECISIONS §10.1): `amount` is of token1. */
  type?: 'exactIn' | 'exactOut'
}

const handlers = new Map<NetworkName, Promise<Handler>>()

/**
 * The quote handler of a network, as its function runs it (the route serverless.yml's `quote`
 * block serves on that network); imported only after its environment is set.
 */
function quoteHandler(network: NetworkName): Promise<Handler> {
  let handler = handlers.get(network)
  if (!handler) {
    const declared = declaredFunctions().find(
      (fn) => fn.operation === 'quote' && fn.network === network,
    )
    if (!declared) throw new Error(`serverless.yml declares no quote on ${network}`)
    handler = declaredHandler(declared) as Promise<Handler>
    handlers.set(network, handler)
  }
  return handler
}

export async function quoteService(network: NetworkName, query: QuoteQuery): Promise<QuoteAnswer> {
  const response = await invoke(
    await quoteHandler(network),
    httpEvent({
      routeKey: `GET /api/v1/swap/quote/${network}`,
      queryStringParameters: {
        ...query,
        decimals0: String(query.decimals0),
        decimals1: String(query.decimals1),
      },
    }),
  )
  return response.status === 200
    ? { status: 200, result: response.body.result as QuoteAnswer['result'] }
    : { status: response.status, error: response.body.error?.message ?? 'no message' }
}
