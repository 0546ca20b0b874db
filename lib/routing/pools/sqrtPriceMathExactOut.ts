import { divRoundingUp, mulDivRoundingUp, Q96 } from './tickMath'

// Uniswap V3's SqrtPriceMath for what an exact-output swap needs (getNextSqrtPriceFromOutput),
// beside the exact-input half in sqrtPriceMath.ts.

const MAX_UINT160 = (1n << 160n) - 1n

/**
 * The price after `amount` of token0 leaves (it rises), rounded up
 * (getNextSqrtPriceFromAmount0RoundingUp with add = false); undefined where the contract reverts
 * (the pool holds less than `amount` at this liquidity).
 */
function nextSqrtPriceFromAmount0Out(
  sqrtPrice: bigint,
  liquidity: bigint,
  amount: bigint,
): bigint | undefined {
  if (amount === 0n) return sqrtPrice
  const numerator1 = liquidity << 96n
  const product = amount * sqrtPrice
  if (product >= 1n << 256n || numerator1 <= product) return undefined
  return mulDivRoundingUp(numerator1, sqrtPrice, numerator1 - product)
}

/**
 * The price after `amount` of token1 leaves (it falls), rounded down
 * (getNextSqrtPriceFromAmount1RoundingDown with add = false); undefined where it would not stay
 * above zero.
 */
function nextSqrtPriceFromAmount1Out(
  sqrtPrice: bigint,
  liquidity: bigint,
  amount: bigint,
): bigint | undefined {
  const quotient =
    amount <= MAX_UINT160
      ? divRoundingUp(amount << 96n, liquidity)
      : mulDivRoundingUp(amount, Q96, liquidity)
  return sqrtPrice > quotient ? sqrtPrice - quotient : undefined
}

/** The price after `amountOut` leaves at `liquidity` (SqrtPriceMath.getNextSqrtPriceFromOutput). */
export function nextSqrtPriceFromOutput(
  sqrtPrice: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint | undefined {
  if (liquidity <= 0n) return undefined
  return zeroForOne
    ? nextSqrtPriceFromAmount1Out(sqrtPrice, liquidity, amountOut)
    : nextSqrtPriceFromAmount0Out(sqrtPrice, liquidity, amountOut)
}
