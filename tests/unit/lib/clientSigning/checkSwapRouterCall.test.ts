import { type Address, encodeFunctionData, encodePacked, type Hex, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { type RouterHop, swapRouterCall } from '../../../../lib/chain/swapRouterCall'
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
