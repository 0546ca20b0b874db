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
  /** The charge on the client's budget that every call waits for (none: nothing to pay). */
  charge?: () => Promise<void>
  /** The charge, once started (up front, or at the first call). */
  charged?: Promise<void>
}

const meters = new AsyncLocalStorage<Meter>()

/**
 * What a call must wait for before it leaves (nodeHttpTransport.ts awaits it): the running
 * request's charge on its client's RPC budget, started here at its first call where it was not
 * started up front. A refused charge (429) rejects every call of the request, so none leaves.
 * Undefined outside a metered request.
 */
export function rpcCallsPaid(): Promise<void> | undefined {
  const meter = meters.getStore()
  if (!meter?.charge) return undefined
  meter.charged ??= meter.charge()
  return meter.charged
}

/**
 * Counts one JSON-RPC call (a retry, a failover to the next URL, a receipt poll: each is another)
 * against the running request's meter, if any; at the meter's cap, throws RpcCallCapReached
 * instead, and the call does not leave. So a request's calls never pass its cap, which is what
 * its route charged the client: the charge is a true worst case (DECISIONS §10.4).
 */
export function countRpcCall(): void {
  const meter = meters.getStore()
  if (!meter) return
  if (meter.calls >= meter.cap) {
    meter.capped = true
    throw new RpcCallCapReached(meter.cap)
  }
  meter.calls += 1
}

export interface MeterOptions {
  /** The calls `run` may make at most. */
  cap: number
  /** The charge every call waits for (rpcCallsPaid); settled only once it succeeded. */
  charge?: () => Promise<void>
  /** Pay the charge before `run` starts rather than at its first call. */
  upFront?: boolean
  /** Given the calls made, once `run` is done and the charge paid; awaited. */
  settle: (calls: number) => Promise<void>
}

/** The charge's refusal, once it is known; undefined when paid or never asked. */
async function refusalOf(meter: Meter): Promise<Error | undefined> {
  return meter.charged?.then(
    () => undefined,
    // What the budget's write threw: TooManyRequests, or the table's failure.
    (error: unknown) => error as Error,
  )
}

/**
 * Runs `run` with a meter of its JSON-RPC calls capped at `cap` and paid by `charge`, and hands
 * the count to `settle` once it is done (a failed request cost its calls too). A request whose
 * charge was refused fails with that refusal (429); one that reached its cap fails with
 * RpcCallCapReached, however deep the refusal was caught or wrapped (viem wraps a transport's
 * error; a quote skips a plan whose simulation failed): an answer built on a refused call is
 * not given.
 */
export async function meterRpcCalls<Result>(
  run: () => Promise<Result>,
  { cap, charge, upFront = false, settle }: MeterOptions,
): Promise<Result> {
  const meter: Meter = { calls: 0, cap, capped: false, ...(charge && { charge }) }
  // Up front: paid before `run` starts, so a refusal reaches no call another request shares
  // (viem shares an in-flight read, say the block number, between concurrent requests).
  if (charge && upFront) {
    meter.charged = charge()
    await meter.charged
  }
  let outcome: { result: Result } | { error: Error }
  try {
    outcome = { result: await meters.run(meter, run) }
  } catch (error) {
    // Rethrown as caught (the route's own errors are Error subclasses).
    outcome = { error: error as Error }
  }
  const refusal = await refusalOf(meter)
  if (meter.charged && refusal === undefined) await settle(meter.calls)
  if (refusal !== undefined) throw refusal
  if (meter.capped) throw new RpcCallCapReached(cap)
  if ('error' in outcome) throw outcome.error
  return outcome.result
}
