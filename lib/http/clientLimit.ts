import type { MiddlewareObj } from '@middy/core'
import type { ClientLimitName } from '../config'
import { chargeClientBudget, spendClientBudget } from '../db/clientBudget'
import { type HttpEvent, type HttpRequest, type HttpResponse, sourceIpOf } from './types'

/** A route's per-client budget: the middleware, and what it spends (the route-cost test reads it). */
export interface ClientLimit extends MiddlewareObj<HttpEvent, HttpResponse> {
  budget: { name: ClientLimitName; weight: number }
  /**
   * For the RPC budget: given the RPC calls the request made (defineHandler meters the core),
   * charges the client what they cost beyond the up-front weight.
   */
  settle?: (sourceIp: string, rpcCalls: number) => Promise<void>
}

/**
 * A per-client budget (DECISIONS §7.1, §9.4): each request takes `weight` units (1 unless given)
 * of the client's budget `name` for the present minute, in one conditional UpdateItem
 * (lib/db/clientBudget.ts), before the body is parsed and before the core; over budget is 429
 * with `Retry-After`, and a refused request costs that one write. The `rpc` budget is priced in
 * RPC calls: `weight` is what a request is charged up front (a typical quote's calls), and one
 * that made more is charged the rest once it is done, so a client pays max(weight, its calls).
 */
export function clientLimit(name: ClientLimitName, weight = 1): ClientLimit {
  return {
    budget: { name, weight },
    before: async (request: HttpRequest) => {
      await spendClientBudget(name, sourceIpOf(request.event), { weight })
    },
    ...(name === 'rpc' && {
      settle: async (sourceIp: string, rpcCalls: number) => {
        if (rpcCalls > weight)
          await chargeClientBudget(name, sourceIp, { units: rpcCalls - weight })
      },
    }),
  }
}
