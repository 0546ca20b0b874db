import { type Address, encodeFunctionData, encodePacked, type Hex, parseAbi } from 'viem'

/** SwapRouter02's surface the service sends (PancakeSwap's SmartRouter takes the same). */
export const swapRouter02Abi = parseAbi([
  'struct ExactInputParams { bytes path; address recipient; uint256 amountIn; uint256 amountOutMinimum; }',
  'function exactInput(ExactInputParams params) payable returns (uint256 amountOut)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to) payable returns (uint256 amountOut)',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
  'function sweepToken(address token, uint256 amountMinimum, address recipient) payable',
])

/** SwapRouter02's recipient meaning "the router itself" (Constants.ADDRESS_THIS). */
const ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002'
/** amountIn meaning "the router's whole balance of the token" (Constants.CONTRACT_BALANCE). */
const CONTRACT_BALANCE = 0n

/** A hop as the router takes it: the protocol and, for V3, the pool's fee tier. */
export interface RouterHop {
  protocol: 'v2' | 'v3'
  /** V3 only (0 for V2). */
  fee: number
  tokenIn: Address
  tokenOut: Address
}

export interface SplitLeg {
  hops: readonly RouterHop[]
  amountIn: bigint
  /**
   * What the leg is expected to pay (its simulated amount): with `legsPayRecipient`, its weight
   * in the split of `amountOutMin` into the legs' minimums (legMinimums).
   */
  amountOut?: bigint
}

/**
 * A pool as the router needs it: its protocol and, for V3, its fee tier. Structural, so the
 * routing engine's pools (lib/routing/pools/pool.ts, a layer above) fit without being imported.
 */
export type RoutedPool = { protocol: 'v2' } | { protocol: 'v3'; state: { fee: number } }

/** A split as the routing engine gives it: each route's input and its hops' pools and figures. */
export interface RoutedSplit {
  routes: readonly {
    amountIn: bigint
    hops: readonly { pool: RoutedPool; tokenIn: Address; tokenOut: Address; amountOut: bigint }[]
  }[]
}

/** The legs of a split, as the router takes them, each expecting its last hop's output. */
export function legsOf(split: RoutedSplit): SplitLeg[] {
  return split.routes.map((route) => ({
    amountIn: route.amountIn,
    amountOut: route.hops[route.hops.length - 1]?.amountOut ?? 0n,
    hops: route.hops.map((hop) => ({
      protocol: hop.pool.protocol,
      fee: hop.pool.protocol === 'v3' ? hop.pool.state.fee : 0,
      tokenIn: hop.tokenIn,
      tokenOut: hop.tokenOut,
    })),
  }))
}

export interface SwapRouterCallParameters {
  legs: readonly SplitLeg[]
  /** Minimum of the whole output (checked by the last leg of a single route, else by unwrap or per leg). */
  amountOutMin: bigint
  recipient: Address
  deadline: bigint
  /** The native coin goes in: the router wraps msg.value as legs pay it. */
  nativeIn: boolean
  /** The native coin comes out: legs pay the router, which unwraps to the recipient. */
  nativeOut: boolean
  /**
   * A split's legs each pay the recipient (token out only, not with `nativeOut`), each with its
   * share of `amountOutMin` as its minimum (legMinimums), instead of paying the router, which
   * sweeps the whole: one transfer of the output token fewer, which a fee-on-transfer token
   * charges for (bestRoute simulates this shape beside the other where the output may take a fee).
   */
  legsPayRecipient?: boolean
}

export interface SwapRouterCall {
  data: Hex
  value: bigint
}

/**
 * The router calls of a leg: each V3 hop its own `exactInput` (its output is then the call's
 * result, and a multi-hop path moves the same tokens through the router anyway), consecutive V2
 * hops one `swapExactTokensForTokens` (pair paying pair, no transfer through the router). Each
 * with the positions of its hops in the leg.
 */
export function segmentsOf(hops: readonly RouterHop[]): { first: number; hops: RouterHop[] }[] {
  const segments: { first: number; hops: RouterHop[] }[] = []
  hops.forEach((hop, index) => {
    const last = segments[segments.length - 1]
    if (last && hop.protocol === 'v2' && last.hops[0]?.protocol === 'v2') last.hops.push(hop)
    else segments.push({ first: index, hops: [hop] })
  })
  return segments
}

function v3Path(hops: readonly RouterHop[]): Hex {
  const types: ('address' | 'uint24')[] = ['address']
  const values: (Address | number)[] = [hops[0]?.tokenIn ?? ADDRESS_THIS]
  for (const hop of hops) {
    types.push('uint24', 'address')
    values.push(hop.fee, hop.tokenOut)
  }
  return encodePacked(types, values)
}

/**
 * The legs' minimums when each pays the recipient itself: `amountOutMin` split in proportion to
 * what each leg is expected to pay, by largest remainder, so they sum to `amountOutMin` exactly
 * (the recipient then receives at least `amountOutMin` whenever every leg meets its own) and none
 * exceeds its leg's expected amount while `amountOutMin` does not exceed their sum.
 */
export function legMinimums(amountOutMin: bigint, expected: readonly bigint[]): bigint[] {
  if (amountOutMin === 0n) return expected.map(() => 0n)
  const total = expected.reduce((sum, amount) => sum + amount, 0n)
  if (total === 0n || expected.some((amount) => amount < 0n)) {
    throw new Error('legs paying the recipient need their expected amounts for a minimum')
  }
  const shares = expected.map((amount) => (amountOutMin * amount) / total)
  let left = amountOutMin - shares.reduce((sum, share) => sum + share, 0n)
  const byRemainder = expected
    .map((amount, index) => ({ index, remainder: (amountOutMin * amount) % total }))
    .sort((a, b) =>
      a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
    )
  for (const { index } of byRemainder) {
    if (left === 0n) break
    shares[index] = (shares[index] ?? 0n) + 1n
    left -= 1n
  }
  return shares
}

/**
 * One SwapRouter02 `multicall(deadline, data)` that swaps every leg of a split: each route as
 * segments (segmentsOf: a V3 hop, or consecutive V2 hops), a segment after the first spending
 * what the router holds of its token; the inner calls come leg by leg, segment by segment, so the
 * multicall's results are the segments' outputs in that order. The minimum is checked on the
 * whole output by the only leg itself, else by `unwrapWETH9` (native out) or `sweepToken` to the
 * recipient once every leg has paid the router; with `legsPayRecipient`, by each leg on its
 * share (legMinimums), every leg paying the recipient.
 */
export function swapRouterCall(parameters: SwapRouterCallParameters): SwapRouterCall {
  const { legs, amountOutMin, recipient, deadline, nativeIn, nativeOut } = parameters
  const totalIn = legs.reduce((sum, leg) => sum + leg.amountIn, 0n)
  const direct = legs.length > 1 && parameters.legsPayRecipient === true && !nativeOut
  // Several legs, or the native coin out: the router collects the output and checks the whole
  // (legs of a split pay at different average rates, so no per-leg minimum is right), unless the
  // legs pay the recipient, each checked on its share.
  const collect = nativeOut || (legs.length > 1 && !direct)
  const finalRecipient = collect ? ADDRESS_THIS : recipient
  const firstHops = legs[0]?.hops ?? []
  const tokenOut = firstHops[firstHops.length - 1]?.tokenOut ?? ADDRESS_THIS
  const minimums = direct
    ? legMinimums(
        amountOutMin,
        legs.map((leg) => leg.amountOut ?? 0n),
      )
    : legs.map(() => (collect ? 0n : amountOutMin))
  const calls: Hex[] = []
  for (const [legIndex, leg] of legs.entries()) {
    const legMin = minimums[legIndex] ?? 0n
    const segments = segmentsOf(leg.hops).map((segment) => segment.hops)
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1
      const to = last ? finalRecipient : ADDRESS_THIS
      const amountIn = index === 0 ? leg.amountIn : CONTRACT_BALANCE
      const minimum = last ? legMin : 0n
      calls.push(
        segment[0]?.protocol === 'v3'
          ? encodeFunctionData({
              abi: swapRouter02Abi,
              functionName: 'exactInput',
              args: [{ path: v3Path(segment), recipient: to, amountIn, amountOutMinimum: minimum }],
            })
          : encodeFunctionData({
              abi: swapRouter02Abi,
              functionName: 'swapExactTokensForTokens',
              args: [
                amountIn,
                minimum,
                [segment[0]?.tokenIn ?? ADDRESS_THIS, ...segment.map((hop) => hop.tokenOut)],
                to,
              ],
            }),
      )
    })
  }
  if (nativeOut) {
    calls.push(
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'unwrapWETH9',
        args: [amountOutMin, recipient],
      }),
    )
  } else if (collect) {
    calls.push(
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'sweepToken',
        args: [tokenOut, amountOutMin, recipient],
      }),
    )
  }
  return {
    data: encodeFunctionData({
      abi: swapRouter02Abi,
      functionName: 'multicall',
      args: [deadline, calls],
    }),
    value: nativeIn ? totalIn : 0n,
  }
}
