import type { MiddlewareObj } from '@middy/core'
import type { ClientLimitName } from '../config'
import { spendClientBudget } from '../db/clientBudget'
import { type HttpEvent, type HttpRequest, type HttpResponse, sourceIpOf } from './types'

/** A route's per-client budget: the middleware, and what it spends (the route-cost test reads it). */
export interface ClientLimit extends MiddlewareObj<HttpEvent, HttpResponse> {
  budget: { name: ClientLimitName; weight: number }
}

/**
 * A per-client budget (DECISIONS §7.1, §9.4): each request takes `weight` units (1 unless given)
 * of the client's budget `name` for the present minute, in one conditional UpdateItem
 * (lib/db/clientBudget.ts), before the body is parsed and before the core; over budget is 429
 * with `Retry-After`, and a refused request costs that one write. The `rpc` budget, priced in
 * RPC calls, is a route's `rpcBudget` instead (lib/http/rpcBudget.ts): charged at its worst case
 * and refunded.
 */
export function clientLimit(name: Exclude<ClientLimitName, 'rpc'>, weight = 1): ClientLimit {
  return {
    budget: { name, weight },
    before: async (request: HttpRequest) => {
      await spendClientBudget(name, sourceIpOf(request.event), { weight })
    },
  }
}
