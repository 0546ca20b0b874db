import { TickMath } from '@uniswap/v3-sdk'
import {
  type Address,
  type Chain,
  createPublicClient,
  http,
  parseAbi,
  type PublicClient,
  type Transport,
} from 'viem'

// The reference the price-history tests hold the service to: time-weighted averages computed
// here from raw eth_call reads of the pools' accumulators at the last block before each boundary
// (found by this file's own bisection), with Uniswap's formulas written out again and V3 ticks
// turned into prices by @uniswap/v3-sdk's TickMath. None of the service's reading or arithmetic.

const pairAbi = parseAbi([
  'function price0CumulativeLast() view returns (uint256)',
  'function price1CumulativeLast() view returns (uint256)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
])
const poolAbi = parseAbi([
  'function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint32, bool)',
])

export interface ReferencePool {
  protocol: 'v2' | 'v3'
  pool: Address
  /** The price is of the pool's token0 in token1 (else of token1 in token0). */
  zeroForOne: boolean
  /** Its weight where the hop has several pools (a decimal string). */
  depth?: string
}

export interface ReferenceHop extends ReferencePool {
  /** More pools of the hop: its price is then the depth-weighted median of all of them. */
  more?: readonly ReferencePool[]
}

interface Ratio {
  num: bigint
  den: bigint
}

/**
 * The weighted median as the middle of the prices that minimise the weighted sum of distances to
 * all of them (Σ weight × |price − m|): they form an interval from one price to another, a single
 * price unless the weight splits at exactly half, and its midpoint is taken (DECISIONS §10.4).
 * Computed exactly: a characterisation of the median, not the service's walk through cumulative
 * weights.
 */
function weightedMedianReference(
  averages: readonly Ratio[],
  pools: readonly ReferencePool[],
  weights: ReadonlyMap<string, bigint> | undefined,
): Ratio {
  const sampled = pools.map((pool) => weights?.get(pool.pool.toLowerCase()) ?? 0n)
  const weightOf = sampled.some((weight) => weight > 0n)
    ? sampled
    : pools.map((pool) => BigInt(pool.depth ?? 'x'))
  const prices = averages.map((value, index) => ({ value, weight: weightOf[index] ?? 0n }))
  const costOf = (m: Ratio): Ratio =>
    prices.reduce<Ratio>(
      (sum, { value, weight }) => {
        const distance = value.num * m.den - m.num * value.den
        const term = {
          num: weight * (distance < 0n ? -distance : distance),
          den: value.den * m.den,
        }
        return { num: sum.num * term.den + term.num * sum.den, den: sum.den * term.den }
      },
      { num: 0n, den: 1n },
    )
  const less = (a: Ratio, b: Ratio) => a.num * b.den < b.num * a.den
  const costs = prices.map(({ value }) => ({ value, cost: costOf(value) }))
  const least = costs.reduce<Ratio | undefined>(
    (best, { cost }) => (!best || less(cost, best) ? cost : best),
    undefined,
  )
  if (!least) throw new Error('a hop without pools')
  const minimisers = costs.filter(({ cost }) => !less(least, cost)).map(({ value }) => value)
  const low = minimisers.reduce((a, b) => (less(b, a) ? b : a))
  const high = minimisers.reduce((a, b) => (less(a, b) ? b : a))
  return { num: low.num * high.den + high.num * low.den, den: 2n * low.den * high.den }
}

export interface ReferencePath {
  hops: readonly ReferenceHop[]
  tokenDecimals: number
  usdDecimals: number
}

/** One devnet's raw reads, each block and pool read once. */
export class TwapReference {
  readonly #client: PublicClient<Transport, Chain | undefined>
  readonly #blocks = new Map<bigint, Promise<{ number: bigint; timestamp: bigint }>>()
  readonly #before = new Map<bigint, Promise<{ number: bigint; timestamp: bigint } | undefined>>()
  readonly #cumulatives = new Map<string, Promise<bigint>>()

  constructor(rpcUrl: string) {
    // No cached block number: a chain the test moves on must be bisected up to its real head.
    this.#client = createPublicClient({ cacheTime: 0, transport: http(rpcUrl, { batch: true }) })
  }

  #block(number: bigint) {
    let block = this.#blocks.get(number)
    if (!block) {
      block = this.#client
        .getBlock({ blockNumber: number })
        .then(({ number: found, timestamp }) => ({ number: found, timestamp }))
      this.#blocks.set(number, block)
    }
    return block
  }

  /** The last block with a timestamp before `at` (Unix seconds), by bisection over block times. */
  blockBefore(at: bigint) {
    let found = this.#before.get(at)
    if (!found) {
      found = (async () => {
        const head = await this.#client.getBlockNumber()
        if ((await this.#block(0n)).timestamp >= at) return undefined
        if ((await this.#block(head)).timestamp < at) return this.#block(head)
        let low = 0n // time < at
        let high = head // time >= at
        while (high - low > 1n) {
          const middle = (low + high) / 2n
          if ((await this.#block(middle)).timestamp < at) low = middle
          else high = middle
        }
        return this.#block(low)
      })()
      this.#before.set(at, found)
    }
    return found
  }

  /**
   * The hop's accumulator at `at`: V2 as UniswapV2OracleLibrary.currentCumulativePrices with `at`
   * for block.timestamp; V3 the block's observe([0]) plus the tick for the seconds after it.
   */
  cumulativeAt(hop: ReferencePool, at: bigint): Promise<bigint> {
    const key = `${hop.pool}:${hop.zeroForOne}:${at}`
    let value = this.#cumulatives.get(key)
    if (!value) {
      value = (async () => {
        const block = await this.blockBefore(at)
        if (!block) throw new Error(`no block before ${at}`)
        const blockNumber = block.number
        if (hop.protocol === 'v2') {
          const [price0, price1, [reserve0, reserve1, last]] = await Promise.all([
            this.#client.readContract({
              address: hop.pool,
              abi: pairAbi,
              functionName: 'price0CumulativeLast',
              blockNumber,
            }),
            this.#client.readContract({
              address: hop.pool,
              abi: pairAbi,
              functionName: 'price1CumulativeLast',
              blockNumber,
            }),
            this.#client.readContract({
              address: hop.pool,
              abi: pairAbi,
              functionName: 'getReserves',
              blockNumber,
            }),
          ])
          const timeElapsed = (Number(at % 2n ** 32n) - last + 2 ** 32) % 2 ** 32
          // FixedPoint.fraction(numerator, denominator): (numerator << 112) / denominator.
          const fraction = hop.zeroForOne
            ? (reserve1 << 112n) / reserve0
            : (reserve0 << 112n) / reserve1
          return ((hop.zeroForOne ? price0 : price1) + fraction * BigInt(timeElapsed)) % 2n ** 256n
        }
        const [[tickCumulatives], [, tick]] = await Promise.all([
          this.#client.readContract({
            address: hop.pool,
            abi: poolAbi,
            functionName: 'observe',
            args: [[0]],
            blockNumber,
          }),
          this.#client.readContract({
            address: hop.pool,
            abi: poolAbi,
            functionName: 'slot0',
            blockNumber,
          }),
        ])
        return (tickCumulatives[0] ?? 0n) + BigInt(tick) * (at - block.timestamp)
      })()
      this.#cumulatives.set(key, value)
    }
    return value
  }

  /** A pool's time-weighted average over [from, to] as an exact ratio of base units. */
  async #poolAverage(pool: ReferencePool, from: bigint, to: bigint): Promise<Ratio> {
    const seconds = to - from
    const [start, end] = await Promise.all([
      this.cumulativeAt(pool, from),
      this.cumulativeAt(pool, to),
    ])
    if (pool.protocol === 'v2') {
      return { num: (end - start + 2n ** 256n) % 2n ** 256n, den: seconds * 2n ** 112n }
    }
    const delta = end - start
    const meanTick = Math.floor(Number(delta) / Number(seconds))
    // Number keeps ticks exact (|delta| < 2^53 over a year of ticks under 887,272 a second).
    expectExactMean(delta, seconds, meanTick)
    const sqrt = BigInt(TickMath.getSqrtRatioAtTick(meanTick).toString())
    return pool.zeroForOne
      ? { num: sqrt * sqrt, den: 2n ** 192n }
      : { num: 2n ** 192n, den: sqrt * sqrt }
  }

  /**
   * The path's time-weighted average USD price of one whole token, 18 decimals, over [from, to]
   * (Unix seconds): each pool's average as an exact fraction (V2: the cumulative's difference over
   * the seconds in UQ112x112; V3: 1.0001^mean tick, the tick rounded down), a hop of several pools
   * taking their weighted median, multiplied along the path, rounded down once. The weights are
   * the bucket's smallest sampled depths where given (by lower-cased pool address; a pool absent
   * weighs 0), else, as for a hop no sample weighs, the depths recorded on the path.
   */
  async averageE18(
    path: ReferencePath,
    from: bigint,
    to: bigint,
    weights?: ReadonlyMap<string, bigint>,
  ): Promise<bigint> {
    let num = 10n ** BigInt(path.tokenDecimals + 18)
    let den = 10n ** BigInt(path.usdDecimals)
    for (const hop of path.hops) {
      const pools = [hop, ...(hop.more ?? [])]
      const averages = await Promise.all(pools.map((pool) => this.#poolAverage(pool, from, to)))
      const [only] = averages
      const price =
        averages.length === 1 && only ? only : weightedMedianReference(averages, pools, weights)
      num *= price.num
      den *= price.den
    }
    return num / den
  }
}

function expectExactMean(delta: bigint, seconds: bigint, meanTick: number): void {
  const floor = delta >= 0n || delta % seconds === 0n ? delta / seconds : delta / seconds - 1n
  if (BigInt(meanTick) !== floor) throw new Error(`mean tick ${meanTick} is not ${floor}`)
}
