// DEMO DATA for the local devnets only: the invented price moves of the devnet's year, as factors
// of each token's catalog price, and the pool prices they make.

export const DAY = 86_400
const HOUR = 3_600

/**
 * When the year's trades happen, oldest first, in seconds before `now`: every 3 days until a month
 * ago, every 8 hours until a day ago, then every 30 minutes up to `now` itself; so each monthly,
 * daily and hourly bucket of the history windows holds a few moves. About 250 blocks.
 */
export function historySchedule(genesis: number, now: number): number[] {
  const times: number[] = []
  const from = (start: number, end: number, every: number) => {
    for (let at = start; at < end; at += every) times.push(at)
  }
  from(genesis + DAY, now - 30 * DAY, 3 * DAY)
  from(now - 30 * DAY, now - DAY, 8 * HOUR)
  from(now - DAY, now, 30 * 60)
  times.push(now)
  return times.filter((at) => at > genesis)
}

// Daily volatility of each demo token's invented USD price (log scale); the stablecoins and the
// fee-on-transfer token (whose burn would skew the trades) stay at their catalog price.
const DAILY_VOLATILITY: Readonly<Record<string, number>> = {
  USDC: 0,
  USDT: 0,
  FOT: 0,
  native: 0.03,
  WBTC: 0.02,
  BTCB: 0.02,
}
const DEFAULT_DAILY_VOLATILITY = 0.035
// No demo price strays further than this from its catalog price (log scale: ×0.64 to ×1.57).
const MAX_LOG_MOVE = 0.45

/** The daily volatility of a demo token's invented price, by its symbol (`native` for the coin). */
export function dailyVolatilityOf(symbol: string): number {
  return DAILY_VOLATILITY[symbol] ?? DEFAULT_DAILY_VOLATILITY
}

/** A deterministic stream of uniform numbers in [0, 1) (mulberry32), seeded by a name. */
function randomStream(name: string): () => number {
  let state = [...name].reduce(
    (hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619),
    2166136261,
  )
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A token's invented price path as factors of its catalog price at each scheduled time: a random
 * walk with variance proportional to elapsed time, tied back to 1 at the first and last time (a
 * Brownian bridge), so the year ends at the catalog prices the rest of the stack expects.
 */
export function priceFactors(name: string, times: readonly number[], dailyVolatility: number) {
  const first = times[0] ?? 0
  const last = times.at(-1) ?? first
  const random = randomStream(name)
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  const walk: number[] = []
  let level = 0
  times.forEach((at, index) => {
    const elapsedDays = index === 0 ? 0 : (at - (times[index - 1] ?? at)) / DAY
    level += gaussian() * dailyVolatility * Math.sqrt(elapsedDays)
    walk.push(level)
  })
  const end = walk.at(-1) ?? 0
  return times.map((at, index) => {
    const tied = (walk[index] ?? 0) - (last === first ? 0 : ((at - first) / (last - first)) * end)
    return Math.exp(Math.max(-MAX_LOG_MOVE, Math.min(MAX_LOG_MOVE, tied)))
  })
}

/** `sqrtPriceX96` for a price `ratio` times the one it states (1e-12 precision; exact at 1). */
export function scaleBySqrt(sqrtPriceX96: bigint, ratio: number): bigint {
  if (ratio === 1) return sqrtPriceX96
  const scale = 1_000_000_000_000n
  return (sqrtPriceX96 * BigInt(Math.round(Math.sqrt(ratio) * 1e12))) / scale
}

/** The integer square root of `value` (rounded down). */
export function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  // Newton's method from above: a float estimate doubled is past the root.
  let root = BigInt(Math.ceil(Math.sqrt(Number(value)))) * 2n
  for (let next = (root + value / root) >> 1n; next < root; next = (root + value / root) >> 1n) {
    root = next
  }
  return root
}
