import { parseUnits } from 'viem'
import type { SampleV3Position } from './sampleCatalogTypes'

// A V3 pool's seed: its price from the catalog prices, its positions sized to their USD value.

const MAX_TICK = 887272
const PRICE_DECIMALS = 18

/** What a pool's seeding needs of each token. */
export type PricedToken = { decimals: number; usdPrice: string }

export type SeedPositions = {
  sqrtPriceX96: bigint
  positions: Array<{ tickLower: number; tickUpper: number; liquidity: bigint }>
  /** Estimated token amounts the positions take (floats rounded up). */
  amount0: bigint
  amount1: bigint
}
/** Prices the pool at the catalog prices and sizes each position to its USD value. */
export function seedPositions(
  token0: PricedToken,
  token1: PricedToken,
  tickSpacing: number,
  positions: readonly SampleV3Position[],
): SeedPositions {
  const usd0 = parseUnits(token0.usdPrice, PRICE_DECIMALS)
  const usd1 = parseUnits(token1.usdPrice, PRICE_DECIMALS)
  // token1 base units per token0 base unit.
  const priceNumerator = usd0 * 10n ** BigInt(token1.decimals)
  const priceDenominator = usd1 * 10n ** BigInt(token0.decimals)
  const sqrtPriceX96 = sqrtBigInt((priceNumerator << 192n) / priceDenominator)
  const price = Number(priceNumerator) / Number(priceDenominator)
  const sqrtPrice = Math.sqrt(price)
  const tick = Math.floor(Math.log(price) / Math.log(1.0001))
  const widest = MAX_TICK - (MAX_TICK % tickSpacing)

  let amount0 = 0
  let amount1 = 0
  const planned = positions.map(({ rangePercent, usd }) => {
    const [tickLower, tickUpper] =
      rangePercent === 'full'
        ? [-widest, widest]
        : rangeTicks(tick, rangePercent, tickSpacing, widest)
    const sqrtLower = Math.pow(1.0001, tickLower / 2)
    const sqrtUpper = Math.pow(1.0001, tickUpper / 2)
    // Value in token1 base units of liquidity L around the price: L(2√P − P/√Pb − √Pa).
    const value1 = (usd / Number(token1.usdPrice)) * 10 ** token1.decimals
    const liquidity = value1 / (2 * sqrtPrice - price / sqrtUpper - sqrtLower)
    amount0 += liquidity * (1 / sqrtPrice - 1 / sqrtUpper)
    amount1 += liquidity * (sqrtPrice - sqrtLower)
    return { tickLower, tickUpper, liquidity: BigInt(Math.floor(liquidity)) }
  })
  return {
    sqrtPriceX96,
    positions: planned,
    amount0: BigInt(Math.ceil(amount0)),
    amount1: BigInt(Math.ceil(amount1)),
  }
}

/** Ticks on the spacing at least ±rangePercent (in price) from `tick`. */
function rangeTicks(
  tick: number,
  rangePercent: number,
  tickSpacing: number,
  widest: number,
): [number, number] {
  const span = Math.log(1 + rangePercent / 100) / Math.log(1.0001)
  const lower = Math.floor((tick - span) / tickSpacing) * tickSpacing
  const upper = Math.ceil((tick + span) / tickSpacing) * tickSpacing
  return [Math.max(lower, -widest), Math.min(upper, widest)]
}

function sqrtBigInt(value: bigint): bigint {
  if (value < 2n) return value
  // Newton's method from above settles on floor(√value).
  let root = value
  let next = (value + 1n) >> 1n
  while (next < root) {
    root = next
    next = (root + value / root) >> 1n
  }
  return root
}
