import { formatUnits, type Hash, parseUnits } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { loadChainConfig } from '../config'
import { Unprocessable } from '../errors'
import { approveIfNeeded } from './approveIfNeeded'
import { estimateGasLimit } from './gasLimit'
import { isNative } from '../constants'
import { quoteRoute, type SwapSides } from './quoteSwap'
import { assertDecimals, readDecimals, readHolding } from './readHolding'
import { recordSent } from './recordSent'
import { DEFAULT_DEADLINE_SECONDS } from '../constants'
import { minimumOut, routerCall } from './routerCall'
import { readSendContext } from './sendContext'
import { sendSigned } from './sendSigned'
import { countMetric } from '../metrics'

export interface ExecuteSwapParameters extends SwapSides {
  account: PrivateKeyAccount
  slippageBps: number
  deadlineSeconds?: number
  now?: Date
}

/**
 * Swaps exactly `amount` of address0 for address1 to the signer, on the path whose simulated
 * output is best (exactAmountOut; the fee-on-transfer router functions when a token takes a fee).
 * One batch of reads (path simulations, block, nonce, tip, balance, allowance, decimals; the
 * first time the container meets the input token, its balance slot in a batch before), then, when
 * the allowance is short, an approval mined first; then the swap's estimate and broadcast.
 * Everything the node refuses before broadcast is a 422 and nothing is recorded.
 */
export async function executeSwap(parameters: ExecuteSwapParameters): Promise<{ txId: Hash }> {
  const { network, account, address0, address1, decimals0, decimals1, slippageBps } = parameters
  const amountIn = parseUnits(parameters.amount, decimals0)
  const { router } = loadChainConfig(network)
  const [best, context, holding, actualDecimals1] = await Promise.all([
    quoteRoute({ network, address0, address1, amountIn, recipient: account.address }),
    readSendContext(network, account.address),
    readHolding({ network, owner: account.address, token: address0, spender: router }),
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
  const approvals = await approveIfNeeded({
    network,
    account,
    token: address0,
    decimals: decimals0,
    spender: router,
    amount: amountIn,
    allowance: holding.allowance,
    nonce: context.nonce,
    fees,
  })
  const clock = BigInt(Math.floor((parameters.now ?? new Date()).getTime() / 1000))
  const start = clock > context.timestamp ? clock : context.timestamp
  const call = routerCall({
    address0,
    address1,
    amountIn,
    amountOutMin: minimumOut(best.amountOut, slippageBps),
    path: best.path,
    recipient: account.address,
    deadline: start + BigInt(parameters.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS),
    feeOnTransfer: best.feeOnTransfer,
  })
  const action = 'swap'
  const swap = { to: router, data: call.data, value: call.value }
  const gas = await estimateGasLimit({ network, action, from: account.address, ...swap })
  const nonce = context.nonce + approvals
  const hash = await sendSigned({ network, action, account, nonce, fees, gas, ...swap })
  countMetric('Swap', { Network: network })
  await recordSent({
    hash,
    type: 'swap',
    network,
    wallet: account.address,
    from: account.address,
    to: router,
    amount: formatUnits(amountIn, decimals0),
    token: address0,
    isNativeTransfer: isNative(address0),
  })
  return { txId: hash }
}
