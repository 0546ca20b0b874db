import { meterRpcCalls } from '../chain/rpcMeter'
import { refundClientBudget, spendClientBudget } from '../db/clientBudget'

/** A route's charge on its client's RPC budget: the calls it may make at most. */
export interface RpcBudget {
  /** The route's worst case in RPC calls: charged up front, and the cap its calls never pass. */
  cap: () => number
  /** Charged only when the core first calls (beforeRpcCalls), not before it. */
  atFirstCall: boolean
  /** Runs the core charged, capped and refunded (defineHandler calls it). */
  spend: <Result>(sourceIp: string, run: () => Promise<Result>) => Promise<Result>
}

export interface RpcBudgetOptions {
  /**
   * 'upFront' (the default): paid before the core runs (beside a session read beside it).
   * 'atFirstCall': at the core's first RPC call, for a route that seldom calls, so a request
   * that makes no call costs no write (a trade lookup calls only for a pending trade). Either
   * way no call leaves before the charge is made.
   */
  charge?: 'upFront' | 'atFirstCall'
}

/**
 * The RPC budget of a route that makes RPC calls (DECISIONS §9.4, §10.4): after authentication
 * and validation (a refused or malformed request costs no budget), one conditional UpdateItem
 * charges the client (source IP) the route's worst case, `cap` calls of its minute
 * (lib/db/clientBudget.ts), before the core (every RPC call also waits for it at the
 * transport, lib/chain/rpcMeter.ts), so a client that cannot afford it is 429 with
 * `Retry-After` and no RPC call is made. The calls are capped at `cap` there too, so the charge is a bound and
 * not a guess, and what the request did not spend is given back to the window it was charged in
 * (one more UpdateItem, only when there is some). `cap` is a number, or a function for a cap
 * read from the configuration (at the first request).
 */
export function rpcBudget(
  cap: number | (() => number),
  { charge = 'upFront' }: RpcBudgetOptions = {},
): RpcBudget {
  const capOf = typeof cap === 'number' ? () => cap : cap
  return {
    cap: capOf,
    atFirstCall: charge === 'atFirstCall',
    spend: (sourceIp, run) => {
      const calls = capOf()
      let chargedAt = new Date()
      const pay = async () => {
        chargedAt = new Date()
        await spendClientBudget('rpc', sourceIp, { weight: calls, now: chargedAt })
      }
      return meterRpcCalls(run, {
        cap: calls,
        charge: pay,
        upFront: charge === 'upFront',
        settle: (made) => refundClientBudget('rpc', sourceIp, { units: calls - made, chargedAt }),
      })
    },
  }
}
