export function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

export const median = (samples: number[]) => percentile(samples, 0.5)

export async function timeOnce(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

export async function timeMany(times: number, run: (index: number) => Promise<unknown>) {
  const samples: number[] = []
  for (let index = 0; index < times; index += 1) {
    samples.push(await timeOnce(() => run(index)))
  }
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), runs: times }
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
export const ms = (value: number) => `${value.toFixed(1)} ms`
