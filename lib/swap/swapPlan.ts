import { type Address, formatUnits, parseUnits } from 'viem'
import type { ExactAmountOutReturnType } from '../chain/bestAmountOut'
import { loadChainConfig } from '../config'
import { DEFAULT_DEADLINE_SECONDS } from '../constants'
import { Unprocessable } from '../errors'
import { approvalAmounts } from './approveIfNeeded'
import { quoteRoute, type SwapSides } from './quoteSwap'
import { assertDecimals, type Holding, readDecimals, readHolding } from './readHolding'
import { minimumOut, type RouterCall, routerCall } from './routerCall'
import { type Fees, readSendContext, type SendContext } from './sendContext'

export interface PlanSwapParameters extends SwapSides {
  /** The wallet that pays and receives. */
  owner: Address
}

/** What a swap needs once its reads are done and checked: signed here or on the client. */
export interface SwapPlan {
  amountIn: bigint
  router: Address
  best: ExactAmountOutReturnType
  context: SendContext
  fees: Fees
  holding: Holding
  /** The approvals a short allowance needs, in order (approvalAmounts). */
  approvals: bigint[]
}

/**
 * One batch of reads (path simulations, block, nonce, tip, balance, allowance, both decimals) and
 * the checks on them: stated decimals (400), balance (422).
 */
export async function planSwap(parameters: PlanSwapParameters): Promise<SwapPlan> {
  const { network, owner, address0, address1, decimals0, decimals1 } = parameters
  const amountIn = parseUnits(parameters.amount, decimals0)
  const { router } = loadChainConfig(network)
  const [best, context, holding, actualDecimals1] = await Promise.all([
    quoteRoute({ network, address0, address1, amountIn, recipient: owner }),
    readSendContext(network, owner),
    readHolding({ network, owner, token: address0, spender: router }),
    readDecimals(network, address1),
  ])
  assertDecimals('decimals0', decimals0, holding.decimals)
  assertDecimals('decimals1', decimals1, actualDecimals1)
  if (holding.balance < amountIn) {
    throw new Unprocessable(
      `insufficient balance: the wallet holds ${formatUnits(holding.balance, decimals0)} of ${address0} on ${network}, the swap needs ${parameters.amount}`,
    )
  }
  const fees = {
    maxFeePerGas: context.maxFeePerGas,
    maxPriorityFeePerGas: context.maxPriorityFeePerGas,
  }
  const approvals = approvalAmounts(holding.allowance, amountIn)
  return { amountIn, router, best, context, fees, holding, approvals }
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
  return routerCall({
    address0: parameters.address0,
    address1: parameters.address1,
    amountIn: plan.amountIn,
    amountOutMin: minimumOut(plan.best.amountOut, parameters.slippageBps),
    path: plan.best.path,
    recipient: parameters.owner,
    deadline: start + BigInt(parameters.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS),
    feeOnTransfer: plan.best.feeOnTransfer,
  })
}
