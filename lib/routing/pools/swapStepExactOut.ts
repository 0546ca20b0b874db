import { amount0Delta, amount1Delta } from './sqrtPriceMath'
import { nextSqrtPriceFromOutput } from './sqrtPriceMathExactOut'
import type { SwapStep } from './swapStep'
import { mulDivRoundingUp } from './tickMath'

/** Fees are in hundredths of a basis point (pips): 3000 is 0.3 %. */
const MAX_FEE_PIPS = 1_000_000n

/**
 * One exact-output step toward `sqrtPriceTarget` within constant liquidity
 * (SwapMath.computeSwapStep for a negative amountRemaining, `amountOutRemaining` its magnitude):
 * the output capped at what is left, the fee taken on the input.
 */
export function computeSwapStepExactOut(
  sqrtPriceCurrent: bigint,
  sqrtPriceTarget: bigint,
  liquidity: bigint,
  amountOutRemaining: bigint,
  feePips: number,
): SwapStep {
  const fee = BigInt(feePips)
  const zeroForOne = sqrtPriceCurrent >= sqrtPriceTarget
  const amountOutToTarget = zeroForOne
    ? amount1Delta(sqrtPriceTarget, sqrtPriceCurrent, liquidity, false)
    : amount0Delta(sqrtPriceCurrent, sqrtPriceTarget, liquidity, false)
  const reachesTarget = amountOutRemaining >= amountOutToTarget
  const sqrtPriceNext = reachesTarget
    ? sqrtPriceTarget
    : (nextSqrtPriceFromOutput(sqrtPriceCurrent, liquidity, amountOutRemaining, zeroForOne) ??
      sqrtPriceTarget)
  const amountIn = zeroForOne
    ? amount0Delta(sqrtPriceNext, sqrtPriceCurrent, liquidity, true)
    : amount1Delta(sqrtPriceCurrent, sqrtPriceNext, liquidity, true)
  let amountOut = reachesTarget
    ? amountOutToTarget
    : zeroForOne
      ? amount1Delta(sqrtPriceNext, sqrtPriceCurrent, liquidity, false)
      : amount0Delta(sqrtPriceCurrent, sqrtPriceNext, liquidity, false)
  if (amountOut > amountOutRemaining) amountOut = amountOutRemaining
  const feeAmount = mulDivRoundingUp(amountIn, fee, MAX_FEE_PIPS - fee)
  return { sqrtPriceNext, amountIn, amountOut, feeAmount }
}
