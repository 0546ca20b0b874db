import { formatUnits, parseUnits } from 'viem'
import { Unprocessable } from '../errors'
import { assertDecimals, readDecimals, readHolding } from '../send/readHolding'
import { readSendContext } from '../send/sendContext'
import { quoteRouteExactOut } from './quoteSwapExactOut'
import { approvalAmounts, swapRouterOf } from './routerAllowance'
import { maximumIn } from './routerCallExactOut'
import type { PlanSwapParameters, SwapPlan } from './swapShapes'

/**
 * planSwap for exact output (DECISIONS §10.1): the same batch of reads, the route by
 * bestRouteExactOut; what the swap may take is then known, `amountInMax` (the route's input and
 * the slippage), so the balance is checked against it once the route is back (422 unless the
 * shortfall is to be reported) and the approvals are for it. The swap's gas is estimated on the
 * exact call before it is signed.
 */
export async function planSwapExactOut(parameters: PlanSwapParameters): Promise<SwapPlan> {
  const { network, owner, address0, address1, decimals0, decimals1 } = parameters
  const amountOut = parseUnits(parameters.amount, decimals1)
  const router = swapRouterOf(network)
  const checked = Promise.all([
    readHolding({ network, owner, token: address0, spender: router }),
    readDecimals(network, address1),
  ]).then(([holding, actualDecimals1]) => {
    assertDecimals('decimals0', decimals0, holding.decimals)
    assertDecimals('decimals1', decimals1, actualDecimals1)
    return holding
  })
  checked.catch(() => undefined)
  const [holding, best, context] = await Promise.all([
    checked,
    quoteRouteExactOut({
      network,
      address0,
      address1,
      amountOut,
      recipient: owner,
      beforeMoreCalls: checked,
    }),
    readSendContext(network, owner),
  ])
  const amountInMax = maximumIn(best.amountIn, parameters.slippageBps ?? 0)
  if (holding.balance < amountInMax && !parameters.reportShortBalance) {
    throw new Unprocessable(
      `insufficient balance: the wallet holds ${formatUnits(holding.balance, decimals0)} of ${address0} on ${network}, the swap may take up to ${formatUnits(amountInMax, decimals0)}`,
    )
  }
  return {
    amountIn: amountInMax,
    router,
    best,
    context,
    fees: {
      maxFeePerGas: context.maxFeePerGas,
      maxPriorityFeePerGas: context.maxPriorityFeePerGas,
    },
    holding,
    approvals: approvalAmounts(holding.allowance, amountInMax),
  }
}
