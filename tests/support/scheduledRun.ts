import type { Context, ScheduledEvent } from 'aws-lambda'

// A scheduled function run in-process as Lambda runs it: a context whose deadline is the
// function's timeout from the start, and an invocation that counts as timed out if it has not
// answered by then (Lambda would have ended it). The deadline stands for the platform's; tests
// assert that a run did not reach it, never how long it took.

export interface ScheduledRun<Result> {
  /** Undefined when the run timed out. */
  result?: Result
  timedOut: boolean
}

const EVENT = { 'detail-type': 'Scheduled Event', source: 'aws.events' } as ScheduledEvent

export async function runScheduled<Result>(
  handler: (
    event: ScheduledEvent,
    context: Pick<Context, 'getRemainingTimeInMillis'>,
  ) => Promise<Result>,
  timeoutMs: number,
): Promise<ScheduledRun<Result>> {
  const deadline = Date.now() + timeoutMs
  const context = { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) }
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<ScheduledRun<Result>>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs)
  })
  try {
    return await Promise.race([
      handler(EVENT, context).then((result) => ({ result, timedOut: false })),
      timedOut,
    ])
  } finally {
    clearTimeout(timer)
  }
}
