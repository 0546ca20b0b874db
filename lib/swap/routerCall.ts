import { type Address, encodeFunctionData, type Hex } from 'viem'
import { uniswapV2SwapAbi } from '../chain/abis'
import { isNative } from '../constants'

export interface RouterCallParameters {
  /** As the client named them: the native sentinel picks the router function. */
  address0: Address
  address1: Address
  amountIn: bigint
  amountOutMin: bigint
  /** Router path, wrapped native in place of the sentinel. */
  path: Address[]
  recipient: Address
  /** Epoch seconds. */
  deadline: bigint
  /**
   * A token on the path takes a fee on transfer: use the router's ...SupportingFeeOnTransferTokens
   * functions, which check what the recipient's balance gained against amountOutMin.
   */
  feeOnTransfer?: boolean
}

export interface RouterCall {
  data: Hex
  /** Wei sent with the call: the amount in when the native coin goes in, else 0. */
  value: bigint
}

/**
 * The Uniswap V2 Router02 call that swaps exactly `amountIn`: the native coin is wrapped inside
 * swapExactETHForTokens and unwrapped inside swapExactTokensForETH; with `feeOnTransfer`, their
 * ...SupportingFeeOnTransferTokens variants (same arguments).
 */
export function routerCall(parameters: RouterCallParameters): RouterCall {
  const { address0, address1, amountIn, amountOutMin, path, recipient, deadline } = parameters
  const feeOnTransfer = parameters.feeOnTransfer ?? false
  if (isNative(address0)) {
    return {
      data: encodeFunctionData({
        abi: uniswapV2SwapAbi,
        functionName: feeOnTransfer
          ? 'swapExactETHForTokensSupportingFeeOnTransferTokens'
          : 'swapExactETHForTokens',
        args: [amountOutMin, path, recipient, deadline],
      }),
      value: amountIn,
    }
  }
  const functionName = isNative(address1)
    ? feeOnTransfer
      ? 'swapExactTokensForETHSupportingFeeOnTransferTokens'
      : 'swapExactTokensForETH'
    : feeOnTransfer
      ? 'swapExactTokensForTokensSupportingFeeOnTransferTokens'
      : 'swapExactTokensForTokens'
  return {
    data: encodeFunctionData({
      abi: uniswapV2SwapAbi,
      functionName,
      args: [amountIn, amountOutMin, path, recipient, deadline],
    }),
    value: 0n,
  }
}

/** floor(out × (10000 − slippageBps) / 10000). */
export function minimumOut(amountOut: bigint, slippageBps: number): bigint {
  return (amountOut * BigInt(10_000 - slippageBps)) / 10_000n
}
