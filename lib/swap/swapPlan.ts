import { type Address, formatUnits, type Hex, parseUnits } from 'viem'
import { candidatePaths, type ExactAmountOutReturnType } from '../chain/bestAmountOut'
import { loadChainConfig, type NetworkName } from '../config'
import { DEFAULT_DEADLINE_SECONDS } from '../constants'
import { Unprocessable } from '../errors'
import { estimateBeside, type GasEstimate, limitFrom } from '../send/gasLimit'
import { quoteRoute, routerTokens, type SwapSides } from './quoteSwap'
import { assertDecimals, type Holding, readDecimals, readHolding } from '../send/readHolding'
import { minimumOut, type RouterCall, routerCall } from './routerCall'
import { type Fees, readSendContext, type SendContext } from '../send/sendContext'

/**
 * The approvals a short allowance needs, in order (DECISIONS §7.2): none when it suffices; the
 * amount when it is zero; otherwise 0 first, then the amount, since tokens like USDT refuse to
 * change a non-zero allowance to another non-zero value.
 */
export function approvalAmounts(allowance: bigint, amount: bigint): bigint[] {
  if (allowance >= amount) return []
  return allowance === 0n ? [amount] : [0n, amount]
}

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
  /**
   * The swap's estimate along the chosen path, made beside the reads (gasFor turns it into the
   * limit of the final call); undefined when approvals come first, when a token on the path takes
   * a fee (the function sent is not the one estimated) or when it failed: the exact call is
   * estimated then, before it is signed.
   */
  estimate?: GasEstimate
}

/** The gas limit of the plan's swap call `data`, when the batch of reads estimated it. */
export function gasFor(plan: SwapPlan, data: Hex): bigint | undefined {
  return plan.estimate && limitFrom(plan.estimate, data)
}

const pathKey = (path: readonly Address[]) => path.join().toLowerCase()

/**
 * Estimates, from the wallet, the swap along every candidate path at once, so the estimates join
 * the batch of reads, before the simulations say which path wins: with the plain router function
 * (the one sent unless a token takes a fee) and `amountOutMin` 0, which runs the same code as the
 * final call; what its calldata costs more is added (limitFrom).
 */
function estimateEveryPath(
  network: NetworkName,
  parameters: PlanSwapParameters & { amountIn: bigint; router: Address },
): Map<string, Promise<GasEstimate>> {
  const { address0, address1, amountIn, owner, router } = parameters
  const { tokenIn, tokenOut } = routerTokens(network, address0, address1)
  const clock = BigInt(Math.floor(Date.now() / 1000))
  const deadline = clock + BigInt(DEFAULT_DEADLINE_SECONDS)
  const { baseTokens } = loadChainConfig(network)
  return new Map(
    candidatePaths(tokenIn, tokenOut, baseTokens).map((path) => {
      const call = routerCall({
        address0,
        address1,
        amountIn,
        amountOutMin: 0n,
        path,
        recipient: owner,
        deadline,
        feeOnTransfer: false,
      })
      const estimate = estimateBeside({ network, action: 'swap', from: owner, to: router, ...call })
      return [pathKey(path), estimate]
    }),
  )
}

/**
 * One batch of reads (path simulations, block, nonce, tip, balance, allowance, both decimals, and
 * the swap's gas along every path) and the checks on them: stated decimals (400), balance (422).
 */
export async function planSwap(parameters: PlanSwapParameters): Promise<SwapPlan> {
  const { network, owner, address0, address1, decimals0, decimals1 } = parameters
  const amountIn = parseUnits(parameters.amount, decimals0)
  const { router } = loadChainConfig(network)
  const estimates = estimateEveryPath(network, { ...parameters, amountIn, router })
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
  // Settled with the batch. Short of an allowance the estimates reverted, and with a fee on
  // transfer another function is sent: not used then, nor when it failed (estimated again).
  const estimate =
    approvals.length === 0 && !best.feeOnTransfer
      ? await estimates.get(pathKey(best.path))
      : undefined
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
