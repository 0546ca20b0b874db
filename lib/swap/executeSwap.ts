import { encodeFunctionData, erc20Abi, formatUnits } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { approveIfNeeded } from './approveIfNeeded'
import { estimateGasLimit } from '../send/gasLimit'
import { isNative } from '../constants'
import type { Broadcast, SendOperation } from '../send/idempotent'
import type { SwapSides } from './quoteSwap'
import { sendSigned } from '../send/sendSigned'
import { gasFor, planMinimumOut, planSwap, quotedIn, swapCallOf, type SwapPlan } from './swapPlan'
import { countMetric } from '../metrics'
import { refuseFailedSimulation } from '../preview/previewChecks'
import { previewSwap } from './swapPreview'
import { type SignedPermit, withSelfPermit } from './permit'
import { permittedPlan, signPermit } from './permitSwap'

export interface ExecuteSwapParameters extends SwapSides {
  account: PrivateKeyAccount
  slippageBps: number
  deadlineSeconds?: number
  now?: Date
}

/**
 * Swaps exactly `amount` of address0 for address1 to the signer, on the path whose simulated
 * output is best (exactAmountOut; the fee-on-transfer router functions when a token takes a fee).
 * The plan is one batch of reads (planSwap: path simulations, block, nonce, tip, balance,
 * allowance, decimals and the swap's gas; the first time the container meets the input token, its
 * balance slot in a batch before). The send, when the allowance is short, signs a permit where the
 * token has one (the swap's multicall starts with selfPermit: one transaction), else approves
 * first (mined before the swap, whose gas is estimated then); otherwise it is the broadcast alone. Everything
 * the node refuses before broadcast is a 422 and nothing is recorded.
 */
export function executeSwap(parameters: ExecuteSwapParameters): SendOperation<SwapPlan> {
  const { account } = parameters
  const owner = account.address
  return {
    plan: () => planSwap({ ...parameters, owner }),
    send: (plan) => sendSwap(parameters, plan),
  }
}

async function sendSwap(parameters: ExecuteSwapParameters, read: SwapPlan): Promise<Broadcast> {
  const { network, account, address0, decimals0 } = parameters
  const owner = account.address
  // A token with EIP-2612 permit: the key signs the permit and the swap's multicall starts with
  // selfPermit, so no approval is sent (DECISIONS §10.2).
  const permit = await signPermit({ ...parameters, owner, token: address0, plan: read })
  const plan = permit ? permittedPlan(read) : read
  const { amountIn, router, context, fees } = plan
  const preview = await previewBeforeSending(parameters, plan, permit)
  const approvals = await approveIfNeeded({
    network,
    account,
    token: address0,
    decimals: decimals0,
    spender: router,
    amount: amountIn,
    allowance: plan.holding.allowance,
    nonce: context.nonce,
    fees,
  })
  // After the approvals are mined: the deadline counts from then.
  const call = swapCallOf(plan, { ...parameters, owner })
  const action = 'swap'
  const data = permit ? withSelfPermit(call.data, permit) : call.data
  const swap = { to: router, data, value: call.value }
  // The exact call is estimated when the batch had no usable estimate (approvals, a fee, a failure).
  const gas =
    gasFor(plan, swap.data) ?? (await estimateGasLimit({ network, action, from: owner, ...swap }))
  const nonce = context.nonce + approvals
  const hash = await sendSigned({ network, action, account, nonce, fees, gas, ...swap })
  countMetric('Swap', { Network: network })
  return {
    txId: hash,
    preview,
    trade: {
      hash,
      type: 'swap',
      network,
      wallet: owner,
      from: owner,
      to: router,
      amount: formatUnits(quotedIn(plan), decimals0),
      token: address0,
      isNativeTransfer: isNative(address0),
    },
  }
}

/**
 * The approvals and the swap simulated at the quote's block before anything is sent (DECISIONS
 * §10.2): a failing simulation is a 422 with its reason and nothing is broadcast.
 */
async function previewBeforeSending(
  parameters: ExecuteSwapParameters,
  plan: SwapPlan,
  permit: SignedPermit | undefined,
) {
  const { network, account, address0, address1, slippageBps } = parameters
  const owner = account.address
  const approve = (amount: bigint) => ({
    kind: 'approval' as const,
    to: address0,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [plan.router, amount],
    }),
    value: 0n,
  })
  const call = swapCallOf(plan, { ...parameters, owner })
  const { preview } = await previewSwap({
    network,
    owner,
    address0,
    address1,
    plan,
    transactions: [
      ...plan.approvals.map(approve),
      {
        kind: 'swap' as const,
        to: plan.router,
        data: permit ? withSelfPermit(call.data, permit) : call.data,
        value: call.value,
      },
    ],
    amountOutMin: planMinimumOut(plan, slippageBps),
  })
  refuseFailedSimulation(preview, network)
  return preview
}
