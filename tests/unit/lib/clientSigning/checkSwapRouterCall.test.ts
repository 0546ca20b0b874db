import fc from 'fast-check'
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  encodePacked,
  type Hex,
  parseAbi,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { legMinimums, type RouterHop, swapRouterCall } from '../../../../lib/chain/swapRouterCall'
import {
  checkSwapRouterCall,
  submittedRouterAbi,
  v3PathTokens,
} from '../../../../lib/clientSigning/checkSwapRouterCall'
import { NATIVE_COIN } from '../../../../lib/constants'

// The submit check of a SwapRouter02 transaction (issue 26): every call swapRouterCall builds
// passes, with the input the trade records; each way a hand-made call could pay a stranger,
// leave the output in the router, run another router function or send a value where none
// belongs is refused. Pure: no node, no table.

const WALLET: Address = '0x1111111111111111111111111111111111111111'
const STRANGER: Address = '0x9999999999999999999999999999999999999999'
const ROUTER: Address = '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45'
const WETH: Address = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
const USDC: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const LINK: Address = '0x514910771AF9Ca656af840dff83E8264EcF986CA'
const ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002'

const v3 = (tokenIn: Address, tokenOut: Address, fee = 500): RouterHop => ({
  protocol: 'v3',
  fee,
  tokenIn,
  tokenOut,
})
const v2 = (tokenIn: Address, tokenOut: Address): RouterHop => ({
  protocol: 'v2',
  fee: 0,
  tokenIn,
  tokenOut,
})

class Refused extends Error {}
const refuse = (why: string): never => {
  throw new Refused(why)
}

function check(data: Hex, value = 0n) {
  return checkSwapRouterCall({
    data,
    value,
    wallet: WALLET,
    router: ROUTER,
    wrappedNative: WETH,
    refuse,
  })
}

function refusal(data: Hex, value = 0n): string {
  try {
    check(data, value)
  } catch (error) {
    if (error instanceof Refused) return error.message
    throw error
  }
  return 'accepted'
}

const multicall = (calls: Hex[]) =>
  encodeFunctionData({ abi: submittedRouterAbi, functionName: 'multicall', args: [1n, calls] })
const exactInput = (path: Hex, recipient: Address, amountIn: bigint) =>
  encodeFunctionData({
    abi: submittedRouterAbi,
    functionName: 'exactInput',
    args: [{ path, recipient, amountIn, amountOutMinimum: 0n }],
  })
const usdcToWeth = encodePacked(['address', 'uint24', 'address'], [USDC, 500, WETH])
const refundETH = () => encodeFunctionData({ abi: submittedRouterAbi, functionName: 'refundETH' })
const wrapETH = (value: bigint) =>
  encodeFunctionData({ abi: submittedRouterAbi, functionName: 'wrapETH', args: [value] })
const unwrap = (minimum: bigint, recipient: Address) =>
  encodeFunctionData({
    abi: submittedRouterAbi,
    functionName: 'unwrapWETH9',
    args: [minimum, recipient],
  })
const sweep = (token: Address, recipient: Address) =>
  encodeFunctionData({
    abi: submittedRouterAbi,
    functionName: 'sweepToken',
    args: [token, 1n, recipient],
  })
const isSame = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase()
const LEFT_IN_ROUTER = 'leaves the output in the router instead of paying the wallet'

/** An inner call with whoever it pays replaced by the router (ADDRESS_THIS). */
function toRouter(data: Hex): Hex {
  return toRecipient(data, ADDRESS_THIS)
}

/** An inner call with whoever it pays replaced by `recipient`. */
function toRecipient(data: Hex, recipient: Address): Hex {
  const call = decodeFunctionData({ abi: submittedRouterAbi, data })
  switch (call.functionName) {
    case 'exactInput':
      return encodeFunctionData({
        abi: submittedRouterAbi,
        functionName: 'exactInput',
        args: [{ ...call.args[0], recipient }],
      })
    case 'swapExactTokensForTokens': {
      const [amountIn, minimum, path] = call.args
      return encodeFunctionData({
        abi: submittedRouterAbi,
        functionName: 'swapExactTokensForTokens',
        args: [amountIn, minimum, path, recipient],
      })
    }
    case 'sweepToken':
      return sweep(call.args[0], recipient)
    case 'unwrapWETH9':
      return unwrap(call.args[0], recipient)
    default:
      throw new Error(`no recipient in ${call.functionName}`)
  }
}

describe('checkSwapRouterCall', () => {
  const base = { amountOutMin: 5n, recipient: WALLET, deadline: 10n }

  it('accepts every call kind swapRouterCall builds, recording the input the wallet pays', () => {
    const single = swapRouterCall({
      ...base,
      legs: [{ hops: [v3(USDC, WETH)], amountIn: 100n }],
      nativeIn: false,
      nativeOut: false,
    })
    expect(check(single.data)).toEqual({ token: USDC, amount: 100n, tokens: [USDC, WETH] })

    const mixed = swapRouterCall({
      ...base,
      legs: [{ hops: [v3(USDC, WETH), v2(WETH, LINK)], amountIn: 100n }],
      nativeIn: false,
      nativeOut: false,
    })
    expect(check(mixed.data)).toMatchObject({ token: USDC, amount: 100n })

    const split = swapRouterCall({
      ...base,
      legs: [
        { hops: [v3(USDC, WETH, 500)], amountIn: 60n },
        { hops: [v2(USDC, LINK), v3(LINK, WETH, 3000)], amountIn: 40n },
      ],
      nativeIn: false,
      nativeOut: false,
    })
    expect(check(split.data)).toMatchObject({ token: USDC, amount: 100n })

    const nativeOut = swapRouterCall({
      ...base,
      legs: [{ hops: [v3(USDC, WETH)], amountIn: 100n }],
      nativeIn: false,
      nativeOut: true,
    })
    expect(check(nativeOut.data)).toMatchObject({ token: USDC, amount: 100n })

    const nativeIn = swapRouterCall({
      ...base,
      legs: [
        { hops: [v3(WETH, USDC)], amountIn: 7n },
        { hops: [v2(WETH, USDC)], amountIn: 3n },
      ],
      nativeIn: true,
      nativeOut: false,
    })
    expect(nativeIn.value).toBe(10n)
    expect(check(nativeIn.data, nativeIn.value)).toMatchObject({ token: NATIVE_COIN, amount: 10n })
  })

  it('refuses a swap that pays a stranger, at any position', () => {
    expect(refusal(multicall([exactInput(usdcToWeth, STRANGER, 100n)]))).toBe(
      'pays the swap out to another address',
    )
    const split = swapRouterCall({
      ...base,
      recipient: STRANGER,
      legs: [
        { hops: [v3(USDC, WETH)], amountIn: 60n },
        { hops: [v2(USDC, WETH)], amountIn: 40n },
      ],
      nativeIn: false,
      nativeOut: false,
    })
    expect(refusal(split.data)).toBe('pays the swap out to another address')
    const unwrapToStranger = swapRouterCall({
      ...base,
      recipient: STRANGER,
      legs: [{ hops: [v3(USDC, WETH)], amountIn: 1n }],
      nativeIn: false,
      nativeOut: true,
    })
    expect(refusal(unwrapToStranger.data)).toBe('pays the swap out to another address')
  })

  it('refuses a call that leaves the output in the router for anyone to sweep', () => {
    expect(refusal(multicall([exactInput(usdcToWeth, ADDRESS_THIS, 100n)]))).toBe(
      'leaves the output in the router instead of paying the wallet',
    )
  })

  it('refuses the output left in the router behind a refundETH, which pays back coin only (issue 32)', () => {
    // The replay of issue 32: accepted before, since refundETH counted as paying the wallet.
    expect(refusal(multicall([exactInput(usdcToWeth, ADDRESS_THIS, 100n), refundETH()]))).toBe(
      'leaves the output in the router instead of paying the wallet',
    )
    expect(refusal(multicall([exactInput(usdcToWeth, ROUTER, 100n), refundETH()]))).toBe(
      'leaves the output in the router instead of paying the wallet',
    )
    // A sweep of another token, or to the router itself, does not take the output out.
    expect(
      refusal(
        multicall([exactInput(usdcToWeth, ADDRESS_THIS, 100n), sweep(USDC, WALLET), refundETH()]),
      ),
    ).toBe('leaves the output in the router instead of paying the wallet')
    expect(
      refusal(multicall([exactInput(usdcToWeth, ADDRESS_THIS, 100n), sweep(WETH, ADDRESS_THIS)])),
    ).toBe('leaves the output in the router instead of paying the wallet')
    // One leg paid, another left behind.
    expect(
      refusal(
        multicall([exactInput(usdcToWeth, WALLET, 60n), exactInput(usdcToWeth, ADDRESS_THIS, 40n)]),
      ),
    ).toBe('leaves the output in the router instead of paying the wallet')
    // Coin wrapped by the router and never spent stays there as wrapped coin.
    const wethToUsdc = encodePacked(['address', 'uint24', 'address'], [WETH, 500, USDC])
    expect(refusal(multicall([wrapETH(100n), exactInput(wethToUsdc, WALLET, 100n)]), 100n)).toBe(
      'leaves the output in the router instead of paying the wallet',
    )
  })

  it('accepts an output held by the router and then swept, unwrapped or swapped on to the wallet', () => {
    expect(
      check(multicall([exactInput(usdcToWeth, ADDRESS_THIS, 100n), sweep(WETH, WALLET)])),
    ).toMatchObject({ token: USDC, amount: 100n })
    expect(
      check(multicall([exactInput(usdcToWeth, ADDRESS_THIS, 100n), unwrap(1n, WALLET)])),
    ).toMatchObject({ token: USDC, amount: 100n })
    // Unwrapped into the router, then the coin refunded to the signer.
    expect(
      check(
        multicall([
          exactInput(usdcToWeth, ADDRESS_THIS, 100n),
          unwrap(1n, ADDRESS_THIS),
          refundETH(),
        ]),
      ),
    ).toMatchObject({ token: USDC, amount: 100n })
    expect(
      refusal(multicall([exactInput(usdcToWeth, ADDRESS_THIS, 100n), unwrap(1n, ADDRESS_THIS)])),
    ).toBe('leaves the output in the router instead of paying the wallet')
  })

  it('refuses a swap of a router balance the call did not put there', () => {
    expect(
      refusal(multicall([exactInput(usdcToWeth, WALLET, 1n), exactInput(usdcToWeth, WALLET, 0n)])),
    ).toBe('spends a router balance the call did not put there')
  })

  it('accepts every split swapRouterCall builds, generated, and refuses each with its output redirected to the router', () => {
    const TOKENS = [USDC, WETH, LINK, STRANGER]
    const hop = fc.record({
      protocol: fc.constantFrom('v2' as const, 'v3' as const),
      fee: fc.constantFrom(100, 500, 3000),
    })
    const route = fc.record({
      middle: fc.array(fc.constantFrom(...TOKENS), { maxLength: 2 }),
      hops: fc.array(hop, { minLength: 3, maxLength: 3 }),
      amountIn: fc.bigInt({ min: 1n, max: 10n ** 24n }),
    })
    fc.assert(
      fc.property(
        fc.array(route, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...TOKENS),
        fc.constantFrom(...TOKENS),
        fc.boolean(),
        fc.boolean(),
        (routes, tokenIn, tokenOut, nativeOut, legsPayRecipient) => {
          const from = tokenIn
          const to = nativeOut ? WETH : tokenOut
          fc.pre(!isSame(from, to))
          const legs = routes.map(({ middle, hops, amountIn }) => {
            const path = [
              from,
              ...middle.filter((token) => !isSame(token, from) && !isSame(token, to)),
              to,
            ]
            return {
              amountIn,
              amountOut: amountIn,
              hops: path.slice(1).map((token, index) => ({
                ...(hops[index] ?? { protocol: 'v2' as const, fee: 0 }),
                fee: hops[index]?.protocol === 'v3' ? (hops[index]?.fee ?? 500) : 0,
                tokenIn: path[index] as Address,
                tokenOut: token,
              })),
            }
          })
          const built = swapRouterCall({
            ...base,
            legs,
            nativeIn: false,
            nativeOut,
            legsPayRecipient,
          })
          const total = legs.reduce((sum, leg) => sum + leg.amountIn, 0n)
          // The router collects the output unless the legs of a split pay the wallet themselves.
          const collected = nativeOut || (legs.length > 1 && !legsPayRecipient)

          expect(check(built.data)).toMatchObject({ token: from, amount: total })
          // The same call with its last inner call paying the router, then a refundETH: refused,
          // except where that call unwraps the coin, which refundETH then pays the wallet.
          const { args } = decodeFunctionData({ abi: submittedRouterAbi, data: built.data })
          const inner = [...(args[1] as readonly Hex[])]
          const last = inner.pop() as Hex
          const redirected = multicall([...inner, toRouter(last), refundETH()])
          if (nativeOut) expect(check(redirected)).toMatchObject({ token: from, amount: total })
          else expect(refusal(redirected)).toBe(LEFT_IN_ROUTER)
          // Without its last call (the sweep or unwrap of a collected output), then a refundETH.
          if (inner.length >= legs.length && collected) {
            expect(refusal(multicall([...inner, refundETH()]))).toBe(LEFT_IN_ROUTER)
          }
        },
      ),
      { numRuns: 500, seed: 32 },
    )
  })

  it('accepts every split whose legs pay the wallet themselves, generated, and refuses it with any one leg paying the router or a stranger', () => {
    const TOKENS = [USDC, WETH, LINK, STRANGER]
    const route = fc.record({
      middle: fc.array(fc.constantFrom(...TOKENS), { maxLength: 2 }),
      protocols: fc.array(fc.constantFrom('v2' as const, 'v3' as const), {
        minLength: 3,
        maxLength: 3,
      }),
      amountIn: fc.bigInt({ min: 1n, max: 10n ** 24n }),
      amountOut: fc.bigInt({ min: 1n, max: 10n ** 24n }),
    })
    fc.assert(
      fc.property(
        fc.array(route, { minLength: 2, maxLength: 4 }),
        fc.constantFrom(...TOKENS),
        fc.constantFrom(...TOKENS),
        fc.nat({ max: 10_000 }),
        fc.nat(),
        fc.boolean(),
        (routes, from, to, slippageBps, pick, toStranger) => {
          fc.pre(!isSame(from, to))
          const legs = routes.map(({ middle, protocols, amountIn, amountOut }) => {
            const path = [
              from,
              ...middle.filter((token) => !isSame(token, from) && !isSame(token, to)),
              to,
            ]
            return {
              amountIn,
              amountOut,
              hops: path.slice(1).map((token, index) => ({
                protocol: protocols[index] ?? ('v2' as const),
                fee: protocols[index] === 'v3' ? 3000 : 0,
                tokenIn: path[index] as Address,
                tokenOut: token,
              })),
            }
          })
          const expected = legs.reduce((sum, leg) => sum + (leg.amountOut ?? 0n), 0n)
          const amountOutMin = (expected * BigInt(10_000 - slippageBps)) / 10_000n
          const built = swapRouterCall({
            ...base,
            amountOutMin,
            legs,
            nativeIn: false,
            nativeOut: false,
            legsPayRecipient: true,
          })
          const total = legs.reduce((sum, leg) => sum + leg.amountIn, 0n)

          expect(check(built.data)).toMatchObject({ token: from, amount: total })
          const { args } = decodeFunctionData({ abi: submittedRouterAbi, data: built.data })
          const inner = [...(args[1] as readonly Hex[])]
          const calls = inner.map((data) => decodeFunctionData({ abi: submittedRouterAbi, data }))
          // No sweep: each leg's last call pays the wallet, with a minimum; the others pay the
          // router and check nothing. The minimums sum to amountOutMin, none above its leg's.
          expect(calls.some((call) => call.functionName === 'sweepToken')).toBe(false)
          const paid = calls.flatMap((call, index) => {
            const [recipient, minimum] =
              call.functionName === 'exactInput'
                ? [call.args[0].recipient, call.args[0].amountOutMinimum]
                : call.functionName === 'swapExactTokensForTokens'
                  ? [call.args[3], call.args[1]]
                  : [undefined, undefined]
            if (recipient === undefined || minimum === undefined) throw new Error('not a swap')
            if (!isSame(recipient, WALLET)) {
              expect(minimum).toBe(0n)
              return []
            }
            return [{ index, minimum }]
          })
          expect(paid.length).toBe(legs.length)
          expect(paid.reduce((sum, { minimum }) => sum + minimum, 0n)).toBe(amountOutMin)
          paid.forEach(({ minimum }, leg) => {
            expect(minimum).toBeLessThanOrEqual(legs[leg]?.amountOut ?? 0n)
          })
          // Any one leg's payment redirected: to the router (left there), or to a stranger.
          const target = paid[pick % paid.length]?.index ?? 0
          const redirected = [...inner]
          const original = redirected[target] as Hex
          redirected[target] = toStranger ? toRecipient(original, STRANGER) : toRouter(original)
          expect(refusal(multicall([...redirected, refundETH()]))).toBe(
            toStranger ? 'pays the swap out to another address' : LEFT_IN_ROUTER,
          )
        },
      ),
      { numRuns: 300, seed: 33 },
    )
  })

  it('splits amountOutMin over the legs paying the wallet in proportion to their amounts, to the unit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 30n }), { minLength: 1, maxLength: 4 }),
        fc.nat({ max: 10_000 }),
        (amounts, slippageBps) => {
          const total = amounts.reduce((sum, amount) => sum + amount, 0n)
          fc.pre(total > 0n)
          const amountOutMin = (total * BigInt(10_000 - slippageBps)) / 10_000n
          const minimums = legMinimums(amountOutMin, amounts)
          expect(minimums.reduce((sum, minimum) => sum + minimum, 0n)).toBe(amountOutMin)
          minimums.forEach((minimum, index) => {
            const amount = amounts[index] ?? 0n
            // The exact share amountOutMin × amount / total, rounded down or up.
            expect(minimum * total).toBeGreaterThan(amountOutMin * amount - total)
            expect(minimum * total).toBeLessThan(amountOutMin * amount + total)
            expect(minimum).toBeLessThanOrEqual(amount)
          })
        },
      ),
      { numRuns: 500, seed: 34 },
    )
    expect(legMinimums(0n, [0n, 0n])).toEqual([0n, 0n])
    expect(() => legMinimums(1n, [0n, 0n])).toThrow()
  })

  it('refuses router functions the service does not prepare, nested multicalls and bare calls', () => {
    const other = parseAbi([
      'function approveMax(address token) payable returns (bytes)',
      'function pull(address token, uint256 value) payable',
      'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
      'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256)',
    ])
    const approveMax = encodeFunctionData({ abi: other, functionName: 'approveMax', args: [USDC] })
    const pull = encodeFunctionData({ abi: other, functionName: 'pull', args: [USDC, 1n] })
    const single = encodeFunctionData({
      abi: other,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: USDC,
          tokenOut: WETH,
          fee: 500,
          recipient: WALLET,
          amountIn: 1n,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    })
    const good = exactInput(usdcToWeth, WALLET, 100n)
    for (const bad of [approveMax, pull, single, multicall([good])]) {
      expect(refusal(multicall([bad, good]))).toBe(
        'calls a swap router function the service does not prepare',
      )
    }
    expect(refusal(good)).toBe('calls a swap router function other than multicall(deadline, data)')
    expect(refusal(multicall([]))).toBe('makes an empty multicall')
  })

  it('refuses a native value where none belongs, or other than the amount swapped', () => {
    const tokenIn = multicall([exactInput(usdcToWeth, WALLET, 100n)])
    expect(refusal(tokenIn, 100n)).toBe(
      'sends native coin with a swap whose input is not the wrapped coin',
    )
    const wethIn = multicall([
      exactInput(encodePacked(['address', 'uint24', 'address'], [WETH, 500, USDC]), WALLET, 100n),
    ])
    expect(refusal(wethIn, 101n)).toBe('sends a native value other than the amount it swaps')
    expect(check(wethIn, 100n)).toMatchObject({ token: NATIVE_COIN, amount: 100n })
  })

  it('refuses a call that swaps two input tokens, or a malformed path', () => {
    const linkToWeth = encodePacked(['address', 'uint24', 'address'], [LINK, 500, WETH])
    expect(
      refusal(multicall([exactInput(usdcToWeth, WALLET, 1n), exactInput(linkToWeth, WALLET, 1n)])),
    ).toBe('swaps more than one input token')
    expect(refusal(multicall([exactInput('0x1234', WALLET, 1n)]))).toBe(
      'swaps along a malformed V3 path',
    )
    expect(
      v3PathTokens(
        encodePacked(
          ['address', 'uint24', 'address', 'uint24', 'address'],
          [USDC, 500, WETH, 3000, LINK],
        ),
      ),
    ).toEqual([USDC, WETH, LINK])
  })
})
