import { AsyncLocalStorage } from 'node:async_hooks'

// The RPC calls one request makes, counted where they leave (nodeHttpTransport.ts) and scoped by
// AsyncLocalStorage, so concurrent requests in one process (offline, the tests) never mix.

interface Meter {
  calls: number
}

const meters = new AsyncLocalStorage<Meter>()

/** Counts one JSON-RPC call (a retry is another) against the running request's meter, if any. */
export function countRpcCall(): void {
  const meter = meters.getStore()
  if (meter) meter.calls += 1
}

/**
 * Runs `run` with a meter of its JSON-RPC calls, and hands the count to `settle` once it is done,
 * whether it answered or failed (a failed quote cost its calls too); `settle` is awaited.
 */
export async function meterRpcCalls<Result>(
  run: () => Promise<Result>,
  settle: (calls: number) => Promise<void>,
): Promise<Result> {
  const meter: Meter = { calls: 0 }
  try {
    return await meters.run(meter, run)
  } finally {
    await settle(meter.calls)
  }
}
