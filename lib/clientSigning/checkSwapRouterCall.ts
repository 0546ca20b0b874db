import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  parseAbi,
  serializeSignature,
  size,
  slice,
} from 'viem'
import { NATIVE_COIN } from '../constants'

/**
 * The SwapRouter02 functions a submitted router transaction may call inside its
 * `multicall(deadline, data)`: those swapRouterCall and swapRouterCallExactOut build, plus
 * wrapETH / refundETH (a client paying the coin in may wrap or refund it), and selfPermit as the
 * first call (a permit swap, DECISIONS §10.2). Anything else (exactInputSingle, approve and pull
 * helpers, selfPermitAllowed, a nested multicall) is refused.
 */
export const submittedRouterAbi = parseAbi([
  'struct ExactInputParams { bytes path; address recipient; uint256 amountIn; uint256 amountOutMinimum; }',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'function exactInput(ExactInputParams params) payable returns (uint256 amountOut)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to) payable returns (uint256 amountOut)',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
  'function sweepToken(address token, uint256 amountMinimum, address recipient) payable',
  'function wrapETH(uint256 value) payable',
  'function refundETH() payable',
  'function selfPermit(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) payable',
  'struct ExactOutputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountOut; uint256 amountInMaximum; uint160 sqrtPriceLimitX96; }',
  'struct ExactOutputParams { bytes path; address recipient; uint256 amountOut; uint256 amountInMaximum; }',
  'function exactOutputSingle(ExactOutputSingleParams params) payable returns (uint256 amountIn)',
  'function exactOutput(ExactOutputParams params) payable returns (uint256 amountIn)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to) payable returns (uint256 amountIn)',
])

/** SwapRouter02's recipient meaning "the router itself" (Constants.ADDRESS_THIS). */
const ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002'
/** SwapRouter02's amountIn meaning "the router's whole balance" (Constants.CONTRACT_BALANCE). */
const CONTRACT_BALANCE = 0n

export interface CheckSwapRouterCallParameters {
  data: Hex
  value: bigint
  /** The signer: the only outside address the router may pay. */
  wallet: Address
  router: Address
  wrappedNative: Address
  refuse: (why: string) => never
}

export interface CheckedSwapRouterCall {
  /** The input as the trade records it: a token, or NATIVE_COIN when value pays it. */
  token: Address
  /** Base units of the input the wallet pays. */
  amount: bigint
  /** Every token the inner calls name (paths, swept tokens): the catalog must know each. */
  tokens: Address[]
  /**
   * The first call's `selfPermit`, of the input token: its signature is verified against the
   * chain before anything is sent (checkPermit).
   */
  permit?: SubmittedPermit
}

/** A submitted swap's `selfPermit`, as signed: value, deadline and the signature's parts. */
export interface SubmittedPermit {
  token: Address
  value: bigint
  deadline: bigint
  signature: Hex
}

/** The tokens of a V3 packed path (token, fee, token, ...); undefined when malformed. */
export function v3PathTokens(path: Hex): Address[] | undefined {
  const length = size(path)
  if (length < 43 || (length - 20) % 23 !== 0) return undefined
  const tokens: Address[] = []
  for (let offset = 0; offset < length; offset += 23) {
    tokens.push(getAddress(slice(path, offset, offset + 20)))
  }
  return tokens
}

function decodeOrUndefined(data: Hex) {
  try {
    return decodeFunctionData({ abi: submittedRouterAbi, data })
  } catch {
    return undefined
  }
}

type InnerCall = NonNullable<ReturnType<typeof decodeOrUndefined>>

/**
 * What a multicall's inner calls move, walked in order: what the router holds for the call (lower-
 * cased token addresses, NATIVE_COIN the coin), whether the wallet is paid, the inputs the wallet
 * pays, the coin wrapped, and every token named.
 */
function routerLedger({ wallet, router, refuse }: CheckSwapRouterCallParameters) {
  const held = new Set<string>()
  const ledger = {
    held,
    paidWallet: false,
    tokens: [] as Address[],
    inputs: [] as Array<{ token: Address; amount: bigint }>,
    wrapped: 0n,
    permit: undefined as SubmittedPermit | undefined,
    calls: 0,
    hold: (token: Address) => held.add(token.toLowerCase()),
    release: (token: Address) => held.delete(token.toLowerCase()),
    isWallet: (recipient: Address) => isAddressEqual(recipient, wallet),
    /** Where a swap or sweep of `token` pays: the wallet, or the router (which then holds it). */
    payTo(recipient: Address, token: Address) {
      if (isAddressEqual(recipient, wallet)) ledger.paidWallet = true
      else if (isAddressEqual(recipient, ADDRESS_THIS) || isAddressEqual(recipient, router)) {
        ledger.hold(token)
      } else refuse('pays the swap out to another address')
    },
    /** A swap's input: an amount the wallet pays, or the router's whole balance it holds. */
    spend(token: Address, amountIn: bigint) {
      if (amountIn !== CONTRACT_BALANCE) ledger.inputs.push({ token, amount: amountIn })
      else if (!ledger.release(token)) refuse('spends a router balance the call did not put there')
    },
  }
  return ledger
}

type RouterLedger = ReturnType<typeof routerLedger>

/** One inner call's effect on the ledger. */
function applyInnerCall(
  ledger: RouterLedger,
  call: InnerCall,
  parameters: CheckSwapRouterCallParameters,
): void {
  const { wrappedNative } = parameters
  // Annotated, so TypeScript narrows after each call (a destructured one does not).
  const refuse: (why: string) => never = parameters.refuse
  ledger.calls += 1
  switch (call.functionName) {
    case 'selfPermit': {
      if (ledger.calls !== 1) refuse('calls selfPermit other than first')
      const [token, value, deadline, v, r, s] = call.args
      ledger.tokens.push(token)
      const signature = serializeSignature({ r, s, v: BigInt(v) })
      ledger.permit = { token: getAddress(token), value, deadline, signature }
      break
    }
    case 'multicall':
      refuse('calls a swap router function the service does not prepare')
      break
    case 'exactInput': {
      const [{ path, recipient, amountIn }] = call.args
      const pathTokens = v3PathTokens(path)
      if (!pathTokens) refuse('swaps along a malformed V3 path')
      ledger.tokens.push(...pathTokens)
      ledger.spend(pathTokens[0] as Address, amountIn)
      ledger.payTo(recipient, pathTokens[pathTokens.length - 1] as Address)
      break
    }
    case 'swapExactTokensForTokens': {
      const [amountIn, , path, recipient] = call.args
      if (path.length < 2) refuse('swaps along a path of fewer than two tokens')
      ledger.tokens.push(...path)
      ledger.spend(path[0] as Address, amountIn)
      ledger.payTo(recipient, path[path.length - 1] as Address)
      break
    }
    case 'exactOutputSingle':
    case 'exactOutput':
    case 'swapTokensForExactTokens':
      applyExactOutCall(ledger, call, refuse)
      break
    case 'unwrapWETH9':
      // The router's whole wrapped coin, unwrapped and paid as coin.
      ledger.release(wrappedNative)
      ledger.payTo(call.args[1], NATIVE_COIN)
      break
    case 'sweepToken': {
      const [token, , recipient] = call.args
      ledger.tokens.push(token)
      if (ledger.isWallet(recipient)) ledger.release(token)
      ledger.payTo(recipient, token)
      break
    }
    case 'wrapETH':
      // The router wraps coin it was sent: wrapped coin it holds until a swap spends it.
      ledger.wrapped += call.args[0]
      ledger.hold(wrappedNative)
      break
    case 'refundETH':
      // Pays msg.sender (the signer) the coin the router holds: the output only when an unwrap
      // to the router made coin the output; a token's output stays where it is.
      if (ledger.release(NATIVE_COIN)) ledger.paidWallet = true
      break
  }
}

type ExactOutCall = Extract<
  InnerCall,
  { functionName: 'exactOutputSingle' | 'exactOutput' | 'swapTokensForExactTokens' }
>

/**
 * An exact-output call (DECISIONS §10.1): the wallet pays at most its maximum (the amount the
 * walk counts; never the router's balance, which these calls cannot spend), the output paid to
 * the wallet or the router. An exact-output path runs from the output back to the input.
 */
function applyExactOutCall(
  ledger: RouterLedger,
  call: ExactOutCall,
  refuse: (why: string) => never,
): void {
  let tokenIn: Address | undefined
  let tokenOut: Address | undefined
  let amountInMax: bigint
  let recipient: Address
  if (call.functionName === 'exactOutputSingle') {
    const [params] = call.args
    ;({ tokenIn, tokenOut, amountInMaximum: amountInMax, recipient } = params)
    ledger.tokens.push(tokenIn, tokenOut)
  } else if (call.functionName === 'exactOutput') {
    const [params] = call.args
    const pathTokens = v3PathTokens(params.path)
    if (!pathTokens) refuse('swaps along a malformed V3 path')
    ;[tokenOut, tokenIn] = [pathTokens[0], pathTokens[pathTokens.length - 1]]
    ;({ amountInMaximum: amountInMax, recipient } = params)
    ledger.tokens.push(...pathTokens)
  } else {
    const [, maximum, path, to] = call.args
    if (path.length < 2) refuse('swaps along a path of fewer than two tokens')
    ;[tokenIn, tokenOut, amountInMax, recipient] = [path[0], path[path.length - 1], maximum, to]
    ledger.tokens.push(...path)
  }
  if (!tokenIn || !tokenOut || amountInMax === CONTRACT_BALANCE) {
    refuse('swaps an exact output with no maximum input')
  }
  ledger.spend(tokenIn, amountInMax)
  ledger.payTo(recipient, tokenOut)
}

/** The input the walk found, once the output has reached the wallet: one token, or the coin. */
function settledInput(
  ledger: RouterLedger,
  parameters: CheckSwapRouterCallParameters,
): CheckedSwapRouterCall {
  const { value, wrappedNative } = parameters
  const refuse: (why: string) => never = parameters.refuse
  if (ledger.held.size > 0 || !ledger.paidWallet) {
    refuse('leaves the output in the router instead of paying the wallet')
  }
  const { inputs, tokens, wrapped } = ledger
  const first = inputs[0]
  if (!first) refuse('swaps no input amount')
  if (inputs.some((input) => !isAddressEqual(input.token, first.token))) {
    refuse('swaps more than one input token')
  }
  const amount = inputs.reduce((sum, input) => sum + input.amount, 0n)
  const { permit } = ledger
  if (permit && (value !== 0n || !isAddressEqual(permit.token, first.token))) {
    refuse('permits a token other than the one the swap spends')
  }
  if (value === 0n) {
    if (wrapped !== 0n) refuse('wraps native coin it does not send')
    return { token: first.token, amount, tokens, ...(permit && { permit }) }
  }
  if (!isAddressEqual(first.token, wrappedNative)) {
    refuse('sends native coin with a swap whose input is not the wrapped coin')
  }
  if (value !== amount) refuse('sends a native value other than the amount it swaps')
  if (wrapped > value) refuse('wraps more native coin than it sends')
  return { token: NATIVE_COIN, amount: value, tokens }
}

/**
 * Checks a transaction to the SwapRouter02 (DECISIONS §7.3, §8.1) as the service would have
 * prepared it: one `multicall(deadline, data)` whose inner calls are exactInput,
 * swapExactTokensForTokens, unwrapWETH9, sweepToken, wrapETH or refundETH; every recipient the
 * signer or the router; the output reaches the wallet within the call: whatever an inner call
 * leaves in the router (ADDRESS_THIS) is spent by a later swap of that token, or swept or
 * unwrapped to the wallet, before the multicall ends (issue 32: refundETH pays back coin only, so
 * it takes no token's output out); one input token, paid by the wallet or, when `value` is sent, by exactly
 * that value of the wrapped coin. Pure: the caller checks the returned tokens against the catalog.
 */
export function checkSwapRouterCall(
  parameters: CheckSwapRouterCallParameters,
): CheckedSwapRouterCall {
  // Annotated, so TypeScript narrows after each call (a destructured one does not).
  const refuse: (why: string) => never = parameters.refuse
  const outer = decodeOrUndefined(parameters.data)
  if (outer?.functionName !== 'multicall') {
    refuse('calls a swap router function other than multicall(deadline, data)')
  }
  const [, inner] = outer.args
  if (inner.length === 0) refuse('makes an empty multicall')
  const ledger = routerLedger(parameters)
  for (const callData of inner) {
    const call = decodeOrUndefined(callData)
    if (!call) refuse('calls a swap router function the service does not prepare')
    applyInnerCall(ledger, call, parameters)
  }
  return settledInput(ledger, parameters)
}
