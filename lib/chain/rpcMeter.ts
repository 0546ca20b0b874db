import { AsyncLocalStorage } from 'node:async_hooks'
import { RpcCallCapReached } from '../errors'

// The RPC calls one request makes, counted where they leave (nodeHttpTransport.ts) and scoped by
// AsyncLocalStorage, so concurrent requests in one process (offline, the tests) never mix.

interface Meter {
  calls: number
  /** Calls the request may make; the one past it is refused before it leaves. */
  cap: number
  /** A call was refused: the request fails whatever its code made of that refusal. */
  capped: boolean
  /** A charge the request pays at its first call (beforeRpcCalls) rather than up front. */
  charge?: () => Promise<void>
  /** The charge, once asked for; a meter without one is paid for already. */
  charged?: Promise<void>
}

const meters = new AsyncLocalStorage<Meter>()

/**
 * Counts one JSON-RPC call (a retry, a failover to the next URL, a receipt poll: each is another)
 * against the running request's meter, if any; at the meter's cap, throws RpcCallCapReached
 * instead, and the call does not leave. So a request's calls never pass its cap, which is what
 * its route charged the client up front: the charge is a true worst case (DECISIONS §10.4).
 */
export function countRpcCall(): void {
  const meter = meters.getStore()
  if (!meter) return
  // A route charged at its first call that calls before asking: a defect, never a free call.
  if (meter.charge && !meter.charged) throw new Error('an RPC call before beforeRpcCalls()')
  if (meter.calls >= meter.cap) {
    meter.capped = true
    throw new RpcCallCapReached(meter.cap)
  }
  meter.calls += 1
}

/**
 * Pays the running request's charge before its first RPC call, for a route charged only if it
 * calls (rpcBudget's `atFirstCall`: a trade lookup calls only for a pending trade); the charge's
 * refusal (429) is thrown here, before any call. At once outside such a request.
 */
export async function beforeRpcCalls(): Promise<void> {
  const meter = meters.getStore()
  if (!meter?.charge) return
  meter.charged ??= meter.charge()
  await meter.charged
}

export interface MeterOptions {
  /** The calls `run` may make at most. */
  cap: number
  /** Paid at the first call (beforeRpcCalls) instead of before `run`; settle only if paid. */
  charge?: () => Promise<void>
  /** Given the calls made, once `run` is done, whether it answered or failed; awaited. */
  settle: (calls: number) => Promise<void>
}

/**
 * Runs `run` with a meter of its JSON-RPC calls capped at `cap`, and hands the count to `settle`
 * once it is done (a failed request cost its calls too). A request that reached its cap fails
 * with RpcCallCapReached, however deep the refusal was caught or wrapped (viem wraps a transport's
 * error; a quote skips a plan whose simulation failed): an answer built on a refused call is
 * not given.
 */
export async function meterRpcCalls<Result>(
  run: () => Promise<Result>,
  { cap, charge, settle }: MeterOptions,
): Promise<Result> {
  const meter: Meter = { calls: 0, cap, capped: false, ...(charge && { charge }) }
  try {
    const result = await meters.run(meter, run)
    if (meter.capped) throw new RpcCallCapReached(cap)
    return result
  } catch (error) {
    throw meter.capped ? new RpcCallCapReached(cap) : error
  } finally {
    const paid = meter.charged
      ? await meter.charged.then(
          () => true,
          () => false,
        )
      : !charge
    if (paid) await settle(meter.calls)
  }
}
