import { isExactOut } from '../routing/quote/bestRouteExactOut'
import { formatUnits, type Hex, parseUnits } from 'viem'
import { DEFAULT_DEADLINE_SECONDS } from '../constants'
import { Unprocessable } from '../errors'
import { limitFrom } from '../send/gasLimit'
import { quoteRoute } from './quoteSwap'
import { approvalAmounts, swapRouterOf } from './routerAllowance'
import { assertDecimals, readDecimals, readHolding } from '../send/readHolding'
import { minimumOut, routeCall, type RouterCall } from './routerCall'
import { readSendContext } from '../send/sendContext'
import { planSwapExactOut } from './swapPlanExactOut'
import { routeCallExactOut } from './routerCallExactOut'
import type { PlanSwapParameters, SwapPlan } from './swapShapes'

export type { PlanSwapParameters, SwapPlan } from './swapShapes'

/** The gas limit of the plan's swap call `data`, when the batch of reads estimated it. */
export function gasFor(plan: SwapPlan, data: Hex): bigint | undefined {
  return plan.estimate && limitFrom(plan.estimate, data)
}

/**
 * Two batches of reads and the checks on them: (1) the pools, gas price and block, with the
 * nonce, tip, balance, allowance and both decimals; (2) the chosen route simulated and its call
 * estimated from the wallet. Checked: stated decimals (400), balance (422), on the first batch's
 * answers, before the route reads further (tick pages) or simulates: a swap the wallet cannot pay
 * costs that one batch.
 */
export async function planSwap(parameters: PlanSwapParameters): Promise<SwapPlan> {
  if (parameters.type === 'exactOut') return planSwapExactOut(parameters)
  const { network, owner, address0, address1, decimals0, decimals1 } = parameters
  const amountIn = parseUnits(parameters.amount, decimals0)
  const router = swapRouterOf(network)
  const sides = Promise.all([
    readHolding({ network, owner, token: address0, spender: router }),
    readDecimals(network, address1),
  ])
  const checked = sides.then(([holding, actualDecimals1]) => {
    assertDecimals('decimals0', decimals0, holding.decimals)
    assertDecimals('decimals1', decimals1, actualDecimals1)
    if (holding.balance < amountIn && !parameters.reportShortBalance) {
      throw new Unprocessable(
        `insufficient balance: the wallet holds ${formatUnits(holding.balance, decimals0)} of ${address0} on ${network}, the swap needs ${parameters.amount}`,
      )
    }
    return holding
  })
  // Awaited by the route and below; this keeps a route that failed first from leaving it unheard.
  checked.catch(() => undefined)
  const [holding, best, context] = await Promise.all([
    checked,
    quoteRoute({
      network,
      address0,
      address1,
      amountIn,
      recipient: owner,
      estimateFrom: owner,
      beforeMoreCalls: checked,
    }),
    readSendContext(network, owner),
  ])
  const fees = {
    maxFeePerGas: context.maxFeePerGas,
    maxPriorityFeePerGas: context.maxPriorityFeePerGas,
  }
  const approvals = approvalAmounts(holding.allowance, amountIn)
  // Short of an allowance the estimate reverted: estimated again once the approvals are mined.
  const estimate = approvals.length === 0 ? best.estimate : undefined
  return {
    amountIn,
    router,
    best,
    context,
    fees,
    holding,
    approvals,
    ...(estimate && 'gas' in estimate && { estimate }),
  }
}

export interface SwapCallParameters extends PlanSwapParameters {
  slippageBps: number
  deadlineSeconds?: number
  now?: Date
}

/** The router call of a plan; its deadline counts from the clock or the block, the later. */
export function swapCallOf(plan: SwapPlan, parameters: SwapCallParameters): RouterCall {
  const clock = BigInt(Math.floor((parameters.now ?? new Date()).getTime() / 1000))
  const start = clock > plan.context.timestamp ? clock : plan.context.timestamp
  if (isExactOut(plan.best)) {
    return routeCallExactOut(plan.best, {
      address0: parameters.address0,
      address1: parameters.address1,
      amountInMax: plan.amountIn,
      recipient: parameters.owner,
      deadline: start + BigInt(parameters.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS),
    })
  }
  return routeCall(plan.best, {
    address0: parameters.address0,
    address1: parameters.address1,
    amountOutMin: minimumOut(plan.best.amountOut, parameters.slippageBps),
    recipient: parameters.owner,
    deadline: start + BigInt(parameters.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS),
  })
}

/** The least the swap delivers: exact output, the amount itself; else by the slippage. */
export function planMinimumOut(plan: SwapPlan, slippageBps: number): bigint {
  return isExactOut(plan.best)
    ? plan.best.amountWanted
    : minimumOut(plan.best.amountOut, slippageBps)
}

/** What the swap is quoted to take of token0: exact output, the route's input (not its maximum). */
export function quotedIn(plan: SwapPlan): bigint {
  return isExactOut(plan.best) ? plan.best.amountIn : plan.amountIn
}
