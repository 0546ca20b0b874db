import { type Address, decodeFunctionData, type Hash, isAddressEqual, parseUnits } from 'viem'
import { expect } from 'vitest'
import { handler as quoteAltchain } from '../../functions/swap/quoteAltchain'
import { handler as quoteEthereum } from '../../functions/swap/quoteEthereum'
import { uniswapV2SwapAbi } from '../../lib/chain/abis'
import type { NetworkName } from '../../lib/config'
import { NATIVE_COIN } from '../../lib/constants'
import { balanceOf, deployment, devnet } from './devnetAccounts'
import { httpEvent, invoke } from './httpEvent'
import { amountOutAlong, reservesOf, type TransferFeeBps } from './pairReserves'

// Checks that an executed swap moved exactly what the quote said, against the chain itself.

export interface SwapRequest {
  amount: string
  address0: Address
  decimals0: number
  address1: Address
  decimals1: number
}

export interface QuoteSnapshot {
  /** Exact amount out (the quote is asked with 0 bps, so amountOutMin is the amount out). */
  amountOut: bigint
  path: Address[]
  blockNumber: bigint
}

/** The service's quote for a swap request, taken while no block was mined. */
export async function quoteFor(network: NetworkName, request: SwapRequest): Promise<QuoteSnapshot> {
  const handler = network === 'ethereum' ? quoteEthereum : quoteAltchain
  const client = devnet(network)
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
    const response = await invoke(
      handler,
      httpEvent({
        routeKey: `GET /api/v1/swap/quote/${network}`,
        queryStringParameters: {
          amount: request.amount,
          address0: request.address0,
          decimals0: String(request.decimals0),
          address1: request.address1,
          decimals1: String(request.decimals1),
          slippageBps: '0',
        },
      }),
    )
    expect(response.status).toBe(200)
    if ((await client.getBlockNumber({ cacheTime: 0 })) !== blockNumber) continue
    const result = response.body.result as { amountOutMin: `0x${string}`; path: Address[] }
    return { amountOut: BigInt(result.amountOutMin), path: result.path, blockNumber }
  }
  throw new Error(`${network} kept mining during the quote`)
}

async function sameReserves(network: NetworkName, path: Address[], a: bigint, b: bigint) {
  for (let hop = 0; hop + 1 < path.length; hop += 1) {
    const [tokenIn, tokenOut] = [path[hop] as Address, path[hop + 1] as Address]
    const [before, after] = await Promise.all([
      reservesOf(network, tokenIn, tokenOut, a),
      reservesOf(network, tokenIn, tokenOut, b),
    ])
    if (before?.[0] !== after?.[0] || before?.[1] !== after?.[1]) return false
  }
  return true
}

/**
 * Asserts the mined swap `hash` took exactly `amount` of address0 from `owner` and paid out what
 * the pair reserves just before it give along its path; and, when no other trade touched those
 * pools since `quote`, exactly the quoted amount. With `feeBps` naming a token of the path that
 * takes a fee on transfer, the router's ...SupportingFeeOnTransferTokens function is expected
 * and the fees are taken off as the token takes them.
 */
export async function expectSwapMatchesQuote(
  network: NetworkName,
  {
    owner,
    hash,
    request,
    quote,
    feeBps = () => 0n,
  }: {
    owner: Address
    hash: Hash
    request: SwapRequest
    quote: QuoteSnapshot
    feeBps?: TransferFeeBps
  },
) {
  const client = devnet(network)
  // The route answers once the node accepted the transaction, not once it is mined.
  const receipt = await client.waitForTransactionReceipt({ hash })
  const transaction = await client.getTransaction({ hash })
  expect(receipt.status).toBe('success')
  expect(transaction.to?.toLowerCase()).toBe(deployment(network).router.toLowerCase())
  const call = decodeFunctionData({ abi: uniswapV2SwapAbi, data: transaction.input })
  const path = call.args[call.args.length - 3] as Address[]
  const amountIn = parseUnits(request.amount, request.decimals0)
  const before = receipt.blockNumber - 1n
  const gas = receipt.gasUsed * receipt.effectiveGasPrice
  const nativeIn = isAddressEqual(request.address0, NATIVE_COIN)
  const nativeOut = isAddressEqual(request.address1, NATIVE_COIN)

  const [in0, in1, out0, out1, expectedOut] = await Promise.all([
    balanceOf(network, owner, request.address0, before),
    balanceOf(network, owner, request.address0, receipt.blockNumber),
    balanceOf(network, owner, request.address1, before),
    balanceOf(network, owner, request.address1, receipt.blockNumber),
    amountOutAlong(network, amountIn, path, before, feeBps),
  ])
  const spent = in0 - in1 - (nativeIn ? gas : 0n)
  const received = out1 - out0 + (nativeOut ? gas : 0n)

  const supporting = path.some((token) => feeBps(token) > 0n) ? 'SupportingFeeOnTransferTokens' : ''
  expect(call.functionName).toBe(
    (nativeIn
      ? 'swapExactETHForTokens'
      : nativeOut
        ? 'swapExactTokensForETH'
        : 'swapExactTokensForTokens') + supporting,
  )
  expect(transaction.value).toBe(nativeIn ? amountIn : 0n)
  expect(spent).toBe(amountIn)
  expect(received).toBe(expectedOut)
  expect(path).toEqual(quote.path)
  if (await sameReserves(network, path, quote.blockNumber, before)) {
    expect(received).toBe(quote.amountOut)
  }
  return { receipt, received }
}
