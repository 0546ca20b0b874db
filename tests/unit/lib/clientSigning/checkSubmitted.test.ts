import '../../support/chainEnv'
import { encodeFunctionData, erc20Abi, getAddress, type Hex, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { uniswapV2SwapAbi } from '../../../../lib/chain/abis'
import { type RouterHop, swapRouterCall } from '../../../../lib/chain/swapRouterCall'
import { checkSubmitted, decodeSubmitted } from '../../../../lib/clientSigning/checkSubmitted'
import type { KnownTokens } from '../../../../lib/clientSigning/knownTokens'
import { NATIVE_COIN } from '../../../../lib/constants'
import { BadRequest, Unprocessable } from '../../../../lib/errors'
import { UNIT_CHAIN_ID, UNIT_ROUTER, UNIT_SWAP_ROUTER } from '../../support/chainEnv'

// The submit checks (DECISIONS §7.3) on transactions signed here by viem's own local accounts:
// pure decoding and checking, no node and no table; the catalog is a fake that knows one token
// and, as readKnownTokens does, the network's wrapped coin.

const wallet = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
const TOKEN = '0x00000000000000000000000000000000000000aa'
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
const catalog: KnownTokens = {
  isKnown: (address) => [TOKEN, WETH.toLowerCase()].includes(address.toLowerCase()),
} as KnownTokens
const OUTSIDE = '0x00000000000000000000000000000000000000bb'

const FEES = { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, gas: 200_000n }

function nativeSwap(recipient: `0x${string}` = wallet.address) {
  return {
    to: UNIT_ROUTER,
    value: parseEther('1'),
    data: encodeFunctionData({
      abi: uniswapV2SwapAbi,
      functionName: 'swapExactETHForTokens',
      args: [1n, [WETH, TOKEN], recipient, 2_000_000_000n],
    }),
  }
}

/** A SwapRouter02 multicall as the service builds it: TOKEN -> WETH (V3) -> `last` (V2). */
function routerSwap({
  recipient = wallet.address,
  last = WETH,
  nativeOut = false,
}: { recipient?: `0x${string}`; last?: `0x${string}`; nativeOut?: boolean } = {}) {
  const hops: RouterHop[] = [{ protocol: 'v3', fee: 500, tokenIn: TOKEN, tokenOut: WETH }]
  if (last !== WETH) hops.push({ protocol: 'v2', fee: 0, tokenIn: WETH, tokenOut: last })
  const call = swapRouterCall({
    legs: [{ hops, amountIn: 5n }],
    amountOutMin: 1n,
    recipient,
    deadline: 2_000_000_000n,
    nativeIn: false,
    nativeOut,
  })
  return { to: UNIT_SWAP_ROUTER, data: call.data, value: call.value }
}

function approve(spender: `0x${string}`) {
  return {
    to: TOKEN as `0x${string}`,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 10n] }),
  }
}

async function signed(
  call: { to: `0x${string}`; value?: bigint; data?: Hex },
  { nonce = 0, chainId = UNIT_CHAIN_ID, signer = wallet } = {},
): Promise<Hex> {
  return signer.signTransaction({ type: 'eip1559', chainId, nonce, ...FEES, ...call })
}

async function check(transactions: Hex[]) {
  const decoded = await decodeSubmitted({
    network: 'ethereum',
    wallet: wallet.address,
    transactions,
  })
  return checkSubmitted(decoded, catalog)
}

async function refusal(transactions: Hex[]): Promise<unknown> {
  return check(transactions).then(
    () => undefined,
    (error: unknown) => error,
  )
}

describe('the submit checks', () => {
  it('accept an approval of the router then a swap paying the wallet, with consecutive nonces', async () => {
    const [approval, swap] = await check([
      await signed(approve(UNIT_ROUTER), { nonce: 7 }),
      await signed(nativeSwap(), { nonce: 8 }),
    ])
    expect(approval).toMatchObject({ kind: 'approval', token: TOKEN, amount: 10n, nonce: 7 })
    expect(swap).toMatchObject({
      kind: 'swap',
      token: NATIVE_COIN,
      amount: parseEther('1'),
      isNativeTransfer: true,
      nonce: 8,
    })
  })

  it('accept an approval of the SwapRouter02 then its multicall paying the wallet', async () => {
    const [approval, swap, unwrap] = await check([
      await signed(approve(UNIT_SWAP_ROUTER), { nonce: 1 }),
      await signed(routerSwap(), { nonce: 2 }),
      await signed(routerSwap({ nativeOut: true }), { nonce: 3 }),
    ])
    expect(approval).toMatchObject({ kind: 'approval', counterparty: UNIT_SWAP_ROUTER })
    expect(swap).toMatchObject({
      kind: 'swap',
      counterparty: UNIT_SWAP_ROUTER,
      token: getAddress(TOKEN),
      amount: 5n,
      isNativeTransfer: false,
    })
    expect(unwrap).toMatchObject({ kind: 'swap', token: getAddress(TOKEN), amount: 5n })
  })

  it.each([
    [
      'to the SwapRouter02 paying someone else',
      () => signed(routerSwap({ recipient: stranger.address })),
      'pays the swap out to another address',
    ],
    [
      'to the SwapRouter02 along a token outside the catalog',
      () => signed(routerSwap({ last: OUTSIDE })),
      `swaps ${getAddress(OUTSIDE)}, not a catalog token`,
    ],
    [
      'to the SwapRouter02 with native coin its swap does not take',
      () => signed({ ...routerSwap(), value: 5n }),
      'sends native coin with a swap whose input is not the wrapped coin',
    ],
    [
      'signed by another wallet',
      () => signed(nativeSwap(), { signer: stranger }),
      'is not signed by the signed-in wallet',
    ],
    ['for another chain', () => signed(nativeSwap(), { chainId: 1 }), 'is for chain id 1'],
    [
      'paying the swap to someone else',
      () => signed(nativeSwap(stranger.address)),
      'pays the swap out to another address',
    ],
    [
      'approving another spender',
      () => signed(approve(stranger.address)),
      'approves a spender other than the router',
    ],
    [
      'calling a contract outside the catalog',
      () => signed({ to: stranger.address, data: '0x12345678' }),
      'neither the router nor a catalog token',
    ],
    [
      'creating a contract',
      () =>
        wallet.signTransaction({
          type: 'eip1559',
          chainId: UNIT_CHAIN_ID,
          nonce: 0,
          ...FEES,
          data: '0x00',
        }),
      'creates a contract',
    ],
  ])('refuse a transaction %s with 422, sending nothing', async (_case, make, why) => {
    const error = await refusal([await make()])
    expect(error).toBeInstanceOf(Unprocessable)
    expect((error as Error).message).toContain(why)
    expect((error as Error).message).toContain('nothing was sent')
  })

  it('refuse nonces with a gap', async () => {
    const error = await refusal([
      await signed(approve(UNIT_ROUTER), { nonce: 3 }),
      await signed(nativeSwap(), { nonce: 5 }),
    ])
    expect(error).toBeInstanceOf(Unprocessable)
    expect((error as Error).message).toBe(
      'transaction 2 has nonce 5; the nonces must be consecutive; nothing was sent',
    )
  })

  it('answer 400 for bytes that are no signed transaction', async () => {
    expect(await refusal(['0x1234'])).toBeInstanceOf(BadRequest)
  })
})
