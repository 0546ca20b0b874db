import type { AnvilNode } from './anvil'
import type { DynamoLocal } from './dynamoLocal'
import type { Offline } from './offline'

export type Service = DynamoLocal | AnvilNode | Offline

/**
 * The processes a start has begun and started, so that a failure or an abort stops every one:
 * `begin` registers a start under way, `track` a service that came up, `stop` stops them all.
 */
export function stackServices(signal?: AbortSignal) {
  const started: Service[] = []
  const stopping: Array<Promise<void>> = []
  // Every call waits for every stop begun so far, so an early abort's stop is awaited as well.
  const stop = async () => {
    stopping.push(...started.splice(0).map((service) => service.stop()))
    await Promise.all(stopping)
  }
  const track = <Started extends Service>(service: Started) => {
    started.push(service)
    // Started after an abort (its wait won the race): stopped with the rest.
    if (signal?.aborted) void stop()
    return service
  }
  // Every start still under way, each settled before a failure stops what started: an engine
  // that comes up after the failure is stopped too, not left running.
  const starting: Array<Promise<unknown>> = []
  const begin = <Result>(work: Promise<Result>): Promise<Result> => {
    starting.push(work)
    // Awaited where used, or settled on failure: never an unhandled rejection meanwhile.
    work.catch(() => {})
    return work
  }
  return {
    begin,
    track,
    stop,
    /** Waits for every start under way to settle, so a stop reaches what it started. */
    settle: () => Promise.allSettled(starting),
    pids: () => started.map((service) => service.pid),
  }
}

export type StackServices = ReturnType<typeof stackServices>
