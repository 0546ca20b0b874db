import '../../support/env'
import { type Address, erc20Abi, maxUint256, parseEther, parseUnits } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { candidatePaths } from '../../../lib/chain/bestAmountOut'
import { loadChainConfig } from '../../../lib/config'
import { NATIVE_COIN } from '../../../lib/constants'
import { estimateBeside, type GasEstimate, limitFrom } from '../../../lib/send/gasLimit'
import { isNodeFailure } from '../../../lib/chain/chainError'
import { routerTokens } from '../../../lib/swap/quoteSwap'
import { minimumOut, routerCall } from '../../../lib/swap/routerCall'
import { uniswapV2RouterAbi } from '../../../lib/chain/abis'
import { deployment, devnet, type FundedAccount, fundedAccount } from '../../support/devnetAccounts'

// Why the swap's gas limit may come from the read batch (lib/swap/swapPlan.ts): each candidate
// path is estimated there with `amountOutMin` 0, before the simulations tell the amount, and the
// limit of the call finally sent is that estimate plus what its calldata costs more (limitFrom),
// with the usual headroom on top. Here, on every path with liquidity between demo and zoo tokens,
// in and out of the native coin, that limit covers the node's estimate of the exact call sent (its
// real amountOutMin and a later deadline). An earlier attempt, estimating the fee-on-transfer
// function in place of the plain one, came out up to 0.15% short of the plain call on 3 hops.

const dex = deployment('ethereum')
let trader: FundedAccount

const SIDES: Array<[string, string, string]> = [
  ['NATIVE', 'LINK', '1'],
  ['LINK', 'NATIVE', '5'],
  ['USDC', 'LINK', '100'],
  ['LINK', 'UNI', '5'],
  ['WHOLE', 'DEEP', '3'],
  ['DEEP', 'WHOLE', '5000'],
]

const addressOf = (symbol: string): Address =>
  symbol === 'NATIVE' ? NATIVE_COIN : dex.token(symbol)

async function decimalsOf(symbol: string): Promise<number> {
  if (symbol === 'NATIVE') return 18
  return devnet('ethereum').readContract({
    address: dex.token(symbol),
    abi: erc20Abi,
    functionName: 'decimals',
  })
}

beforeAll(async () => {
  trader = await fundedAccount('ethereum', {
    native: parseEther('100'),
    tokens: {
      LINK: parseEther('50'),
      USDC: parseUnits('1000', 6),
      WHOLE: 10n,
      DEEP: parseUnits('10000', 24),
    },
  })
  for (const symbol of ['LINK', 'USDC', 'WHOLE', 'DEEP']) {
    const hash = await trader.wallet.writeContract({
      address: dex.token(symbol),
      abi: erc20Abi,
      functionName: 'approve',
      args: [dex.router, maxUint256],
    })
    await devnet('ethereum').waitForTransactionReceipt({ hash })
  }
}, 120_000)

/**
 * `work`'s result from a window in which no block was mined and the clock stayed in one second.
 * The suite's other files trade on the same devnet: a swap mined between the two estimates
 * changes what the second one costs, and so does a second boundary, since a pair updated in the
 * pending block's second skips its price-accumulator writes. Neither is what this test compares.
 */
async function atOneState<T>(work: () => Promise<T>, again: (result: T) => boolean): Promise<T> {
  const blockNumber = () => devnet('ethereum').getBlockNumber({ cacheTime: 0 })
  const second = () => Math.floor(Date.now() / 1000)
  for (let attempt = 1; ; attempt++) {
    const [before, startedIn] = [await blockNumber(), second()]
    const result = await work()
    const settled = (await blockNumber()) === before && second() === startedIn
    if (settled && !again(result)) return result
    if (attempt === 50) throw new Error('a block, a second or a node failure in each of 50 tries')
  }
}

describe('the swap estimate beside the reads', () => {
  it.each(SIDES)(
    '%s to %s: the estimate with amountOutMin 0 and the calldata difference cover the call sent',
    async (from, to, amount) => {
      const [address0, address1] = [addressOf(from), addressOf(to)]
      const amountIn = parseUnits(amount, await decimalsOf(from))
      const { tokenIn, tokenOut } = routerTokens('ethereum', address0, address1)
      const clock = BigInt(Math.floor(Date.now() / 1000))
      const estimate = (path: Address[], amountOutMin: bigint, deadline: bigint) =>
        estimateBeside({
          network: 'ethereum',
          action: 'swap',
          from: trader.address,
          to: dex.router,
          ...routerCall({
            address0,
            address1,
            amountIn,
            amountOutMin,
            path,
            recipient: trader.address,
            deadline,
          }),
        })
      const quoted = (path: Address[]) =>
        devnet('ethereum')
          .readContract({
            address: dex.router,
            abi: uniswapV2RouterAbi,
            functionName: 'getAmountsOut',
            args: [amountIn, path],
          })
          .then((amounts) => amounts[amounts.length - 1] ?? 0n)

      // A path without liquidity reverts; an estimate the busy node did not answer is asked again.
      const nodeFailed = ({ early, sent }: { early: GasEstimate; sent?: GasEstimate }) =>
        [early, sent].some(
          (estimate) => estimate && 'error' in estimate && isNodeFailure(estimate.error),
        )
      const paths = candidatePaths(tokenIn, tokenOut, loadChainConfig('ethereum').baseTokens)
      const compared = await Promise.all(
        paths.map((path) =>
          atOneState(async () => {
            const early = await estimate(path, 0n, clock + 1200n)
            if ('error' in early) return { path, early }
            const sent = await estimate(path, minimumOut(await quoted(path), 50), clock + 1500n)
            return { path, early, sent }
          }, nodeFailed),
        ),
      )
      const routable = compared.flatMap(({ path, early, sent }) =>
        'gas' in early && sent && 'gas' in sent ? [{ path, early, sent }] : [],
      )

      expect(routable.length).toBeGreaterThan(0)
      for (const { path, early, sent } of routable) {
        // The limit the service sends (the early estimate plus the calldata difference, with
        // headroom) covers the node's estimate of the exact call. The bare sum is usually equal
        // to that estimate, but not always above it: two loaded runs of 4 saw it fall short while
        // other files traded on these pairs (the node's estimate is a search, not an exact cost).
        expect({ path, covered: limitFrom(early, sent.data) >= sent.gas }).toEqual({
          path,
          covered: true,
        })
      }
    },
  )
})
