import { divRoundingUp, mulDiv, mulDivRoundingUp, Q96 } from './tickMath'

// Uniswap V3's SqrtPriceMath in bigint, for what an exact-input swap needs. The 256-bit overflow
// checks of the contract are kept where they change which formula runs (the result's rounding).

const MAX_UINT256 = (1n << 256n) - 1n
const MAX_UINT160 = (1n << 160n) - 1n

/** Token0 between two prices: liquidity × (√B − √A) / (√A × √B), rounded as asked. */
export function amount0Delta(
  sqrtRatioA: bigint,
  sqrtRatioB: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const [lower, upper] =
    sqrtRatioA > sqrtRatioB ? [sqrtRatioB, sqrtRatioA] : [sqrtRatioA, sqrtRatioB]
  const numerator1 = liquidity << 96n
  const numerator2 = upper - lower
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower)
    : mulDiv(numerator1, numerator2, upper) / lower
}

/** Token1 between two prices: liquidity × (√B − √A), rounded as asked. */
export function amount1Delta(
  sqrtRatioA: bigint,
  sqrtRatioB: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const [lower, upper] =
    sqrtRatioA > sqrtRatioB ? [sqrtRatioB, sqrtRatioA] : [sqrtRatioA, sqrtRatioB]
  return roundUp
    ? mulDivRoundingUp(liquidity, upper - lower, Q96)
    : mulDiv(liquidity, upper - lower, Q96)
}

/** The price after adding `amount` of token0 (it falls), rounded up. */
function nextSqrtPriceFromAmount0In(sqrtPrice: bigint, liquidity: bigint, amount: bigint): bigint {
  if (amount === 0n) return sqrtPrice
  const numerator1 = liquidity << 96n
  const product = (amount * sqrtPrice) & MAX_UINT256
  if (product / amount === sqrtPrice) {
    const denominator = (numerator1 + product) & MAX_UINT256
    if (denominator >= numerator1) return mulDivRoundingUp(numerator1, sqrtPrice, denominator)
  }
  return divRoundingUp(numerator1, numerator1 / sqrtPrice + amount)
}

/** The price after adding `amount` of token1 (it rises), rounded down. */
function nextSqrtPriceFromAmount1In(sqrtPrice: bigint, liquidity: bigint, amount: bigint): bigint {
  const quotient =
    amount <= MAX_UINT160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity)
  return sqrtPrice + quotient
}

/** The price after `amountIn` enters at `liquidity` (SqrtPriceMath.getNextSqrtPriceFromInput). */
export function nextSqrtPriceFromInput(
  sqrtPrice: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  return zeroForOne
    ? nextSqrtPriceFromAmount0In(sqrtPrice, liquidity, amountIn)
    : nextSqrtPriceFromAmount1In(sqrtPrice, liquidity, amountIn)
}
