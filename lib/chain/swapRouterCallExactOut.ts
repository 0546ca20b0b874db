import { type Address, encodeFunctionData, encodePacked, type Hex, parseAbi } from 'viem'
import type { RouterHop, SwapRouterCall } from './swapRouterCall'

/** SwapRouter02's exact-output surface (PancakeSwap's SmartRouter takes the same). */
export const swapRouter02ExactOutAbi = parseAbi([
  'struct ExactOutputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountOut; uint256 amountInMaximum; uint160 sqrtPriceLimitX96; }',
  'struct ExactOutputParams { bytes path; address recipient; uint256 amountOut; uint256 amountInMaximum; }',
  'function exactOutputSingle(ExactOutputSingleParams params) payable returns (uint256 amountIn)',
  'function exactOutput(ExactOutputParams params) payable returns (uint256 amountIn)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to) payable returns (uint256 amountIn)',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
  'function refundETH() payable',
])

/** SwapRouter02's recipient meaning "the router itself" (Constants.ADDRESS_THIS). */
const ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002'

/** A route paying exactly `amountOut`, taking at most `amountInMax`: one protocol throughout. */
export interface ExactOutLeg {
  hops: readonly RouterHop[]
  amountOut: bigint
  amountInMax: bigint
}

export interface SwapRouterCallExactOutParameters {
  legs: readonly ExactOutLeg[]
  recipient: Address
  deadline: bigint
  /** The call's value is the legs' maximums; the router wraps what each takes, refunds the rest. */
  nativeIn: boolean
  /** The legs pay the router, which unwraps the whole to the recipient. */
  nativeOut: boolean
}

/** An exact-output path: the tokens from the output back to the input (Path.sol's order). */
function v3PathReversed(hops: readonly RouterHop[]): Hex {
  const types: ('address' | 'uint24')[] = ['address']
  const values: (Address | number)[] = [hops[hops.length - 1]?.tokenOut ?? ADDRESS_THIS]
  for (const hop of [...hops].reverse()) {
    types.push('uint24', 'address')
    values.push(hop.fee, hop.tokenIn)
  }
  return encodePacked(types, values)
}

function legCall(leg: ExactOutLeg, to: Address): Hex {
  const [first] = leg.hops
  if (first?.protocol === 'v3' && leg.hops.length === 1) {
    return encodeFunctionData({
      abi: swapRouter02ExactOutAbi,
      functionName: 'exactOutputSingle',
      args: [
        {
          tokenIn: first.tokenIn,
          tokenOut: first.tokenOut,
          fee: first.fee,
          recipient: to,
          amountOut: leg.amountOut,
          amountInMaximum: leg.amountInMax,
          sqrtPriceLimitX96: 0n,
        },
      ],
    })
  }
  if (first?.protocol === 'v3') {
    return encodeFunctionData({
      abi: swapRouter02ExactOutAbi,
      functionName: 'exactOutput',
      args: [
        {
          path: v3PathReversed(leg.hops),
          recipient: to,
          amountOut: leg.amountOut,
          amountInMaximum: leg.amountInMax,
        },
      ],
    })
  }
  return encodeFunctionData({
    abi: swapRouter02ExactOutAbi,
    functionName: 'swapTokensForExactTokens',
    args: [
      leg.amountOut,
      leg.amountInMax,
      [first?.tokenIn ?? ADDRESS_THIS, ...leg.hops.map((hop) => hop.tokenOut)],
      to,
    ],
  })
}

/**
 * One SwapRouter02 `multicall(deadline, data)` paying exactly each leg's output (DECISIONS
 * §10.1): a V3 leg one `exactOutputSingle` or `exactOutput`, a V2 leg one
 * `swapTokensForExactTokens`, each with its own maximum in; the multicall's results are the legs'
 * inputs, in order. Token out: each leg pays the recipient (their outputs sum to the amount).
 * Native out: the legs pay the router and `unwrapWETH9` sends the whole. Native in: the value is
 * the legs' maximums, each leg wraps what it takes, and `refundETH` returns the rest in the
 * same transaction.
 */
export function swapRouterCallExactOut(
  parameters: SwapRouterCallExactOutParameters,
): SwapRouterCall {
  const { legs, recipient, deadline, nativeIn, nativeOut } = parameters
  const to = nativeOut ? ADDRESS_THIS : recipient
  const calls = legs.map((leg) => legCall(leg, to))
  if (nativeOut) {
    const amountOut = legs.reduce((sum, leg) => sum + leg.amountOut, 0n)
    calls.push(
      encodeFunctionData({
        abi: swapRouter02ExactOutAbi,
        functionName: 'unwrapWETH9',
        args: [amountOut, recipient],
      }),
    )
  }
  if (nativeIn) {
    calls.push(encodeFunctionData({ abi: swapRouter02ExactOutAbi, functionName: 'refundETH' }))
  }
  return {
    data: encodeFunctionData({
      abi: swapRouter02ExactOutAbi,
      functionName: 'multicall',
      args: [deadline, calls],
    }),
    value: nativeIn ? legs.reduce((sum, leg) => sum + leg.amountInMax, 0n) : 0n,
  }
}
