import { amount0Delta, amount1Delta, nextSqrtPriceFromInput } from './sqrtPriceMath'
import { mulDiv, mulDivRoundingUp } from './tickMath'

/** Fees are in hundredths of a basis point (pips): 3000 is 0.3 %. */
const MAX_FEE_PIPS = 1_000_000n

export interface SwapStep {
  sqrtPriceNext: bigint
  amountIn: bigint
  amountOut: bigint
  feeAmount: bigint
}

/**
 * One exact-input step toward `sqrtPriceTarget` within constant liquidity
 * (SwapMath.computeSwapStep for a positive amountRemaining).
 */
export function computeSwapStepExactIn(
  sqrtPriceCurrent: bigint,
  sqrtPriceTarget: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number,
): SwapStep {
  const fee = BigInt(feePips)
  const zeroForOne = sqrtPriceCurrent >= sqrtPriceTarget
  const amountRemainingLessFee = mulDiv(amountRemaining, MAX_FEE_PIPS - fee, MAX_FEE_PIPS)
  const amountInToTarget = zeroForOne
    ? amount0Delta(sqrtPriceTarget, sqrtPriceCurrent, liquidity, true)
    : amount1Delta(sqrtPriceCurrent, sqrtPriceTarget, liquidity, true)
  const reachesTarget = amountRemainingLessFee >= amountInToTarget
  const sqrtPriceNext = reachesTarget
    ? sqrtPriceTarget
    : nextSqrtPriceFromInput(sqrtPriceCurrent, liquidity, amountRemainingLessFee, zeroForOne)
  const amountIn = reachesTarget
    ? amountInToTarget
    : zeroForOne
      ? amount0Delta(sqrtPriceNext, sqrtPriceCurrent, liquidity, true)
      : amount1Delta(sqrtPriceCurrent, sqrtPriceNext, liquidity, true)
  const amountOut = zeroForOne
    ? amount1Delta(sqrtPriceNext, sqrtPriceCurrent, liquidity, false)
    : amount0Delta(sqrtPriceCurrent, sqrtPriceNext, liquidity, false)
  // Short of the target, what is left of the input is all fee (the contract's rule).
  const feeAmount =
    sqrtPriceNext !== sqrtPriceTarget
      ? amountRemaining - amountIn
      : mulDivRoundingUp(amountIn, fee, MAX_FEE_PIPS - fee)
  return { sqrtPriceNext, amountIn, amountOut, feeAmount }
}
