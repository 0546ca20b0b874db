import '../../support/env'
import { type Address, erc20Abi, maxUint256, parseEther, parseUnits } from 'viem'
import { describe, expect, inject, it } from 'vitest'
import { legsOf, swapRouterCall } from '../../../lib/chain/swapRouterCall'
import { bestRoute } from '../../../lib/routing/quote/bestRoute'
import { devnet, fundedAccount } from '../../support/devnetAccounts'
import { byCatalog, type DemoCatalog, TESTED_NETWORKS } from '../../support/networkCases'
import { tradeOnOwnCopies } from '../../support/ownCopies'

// Every route kind the engine picks on the devnet, executed as the one SwapRouter02 transaction
// it describes: what the wallet's balance gains equals the quote to the base unit.

const NETWORKS = TESTED_NETWORKS
type Network = (typeof NETWORKS)[number]
const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' as Address

function tokenOf(network: Network, symbol: string): Address {
  const deployed = inject('deployments')[network]
  if (symbol === 'native') return NATIVE
  if (symbol === 'USDC') return deployed.usdStablecoin
  const found = [...deployed.tokens, ...deployed.v3OnlyTokens].find((t) => t.symbol === symbol)
  if (!found) throw new Error(`no ${symbol} on ${network}`)
  return found.address
}

// By demo catalog: a network runs its catalog's cases (tests/support/networkCases.ts).
const CASES: Record<DemoCatalog, { from: string; to: string; amount: string; decimals: number }[]> =
  {
    ethereum: [
      { from: 'native', to: 'USDC', amount: '2', decimals: 18 },
      { from: 'USDC', to: 'native', amount: '5000', decimals: 6 },
      { from: 'USDC', to: 'ENS', amount: '3000', decimals: 6 },
      { from: 'USDC', to: 'LINK', amount: '2000000', decimals: 6 },
      { from: 'native', to: 'WBTC', amount: '1', decimals: 18 },
    ],
    altchain: [
      { from: 'native', to: 'USDC', amount: '2', decimals: 18 },
      { from: 'USDC', to: 'native', amount: '5000', decimals: 6 },
      { from: 'USDC', to: 'XVS', amount: '3000', decimals: 6 },
      { from: 'USDC', to: 'CAKE', amount: '2000000', decimals: 6 },
      { from: 'native', to: 'BTCB', amount: '1', decimals: 18 },
    ],
  }

// Its 2,000,000 USDC splits would move the shared pools' prices (LINK's doubled).
tradeOnOwnCopies(NETWORKS)

describe.each(NETWORKS)('bestRoute executed on %s', (network) => {
  it('pays each quoted route kind exactly what it quoted, through one SwapRouter02 multicall', async () => {
    const deployed = inject('deployments')[network]
    const usdcDecimals = 6
    const owner = await fundedAccount(network, {
      native: parseEther('1000'),
      tokens: { USDC: parseUnits('3000000', usdcDecimals) },
    })
    const client = devnet(network)
    const kinds = new Set<string>()
    const approved = new Set<Address>()
    /** Quotes `amountIn` of `from` for `to`, sends the one router call, returns what arrived. */
    const execute = async (from: string, to: string, amountIn: bigint): Promise<bigint> => {
      const nativeIn = from === 'native'
      const nativeOut = to === 'native'
      const tokenIn = nativeIn ? deployed.wrappedNative : tokenOf(network, from)
      const tokenOut = nativeOut ? deployed.wrappedNative : tokenOf(network, to)
      if (!nativeIn && !approved.has(tokenIn)) {
        const approval = await owner.wallet.writeContract({
          address: tokenIn,
          abi: erc20Abi,
          functionName: 'approve',
          args: [deployed.swapRouter, maxUint256],
        })
        await client.waitForTransactionReceipt({ hash: approval })
        approved.add(tokenIn)
      }
      const quote = await bestRoute({
        network,
        tokenIn,
        tokenOut,
        amountIn,
        nativeIn,
        nativeOut,
        recipient: owner.address,
      })
      const block = await client.getBlock()
      const call = swapRouterCall({
        legs: legsOf(quote),
        amountOutMin: quote.amountOut,
        recipient: owner.address,
        deadline: block.timestamp + 1200n,
        nativeIn,
        nativeOut,
      })
      const balance = () =>
        nativeOut
          ? client.getBalance({ address: owner.address })
          : client.readContract({
              address: tokenOut,
              abi: erc20Abi,
              functionName: 'balanceOf',
              args: [owner.address],
            })
      const before = await balance()
      const hash = await owner.wallet.sendTransaction({
        to: quote.router,
        data: call.data,
        value: call.value,
        gas: 3_000_000n,
      })
      const receipt = await client.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      const gasPaid = nativeOut ? receipt.gasUsed * receipt.effectiveGasPrice : 0n
      const received = (await balance()) - before + gasPaid
      expect({ from, to, amountIn, received }).toEqual({
        from,
        to,
        amountIn,
        received: quote.amountOut,
      })
      const protocols = new Set(
        quote.routes.flatMap((route) => route.hops.map((hop) => hop.pool.protocol)),
      )
      if (quote.routes.length > 1) kinds.add('split')
      if (quote.routes.some((route) => new Set(route.hops.map((h) => h.pool.protocol)).size > 1))
        kinds.add('mixed')
      for (const protocol of protocols) kinds.add(protocol)
      if (nativeIn) kinds.add('native in')
      if (nativeOut) kinds.add('native out')
      return received
    }
    for (const swap of byCatalog(network, CASES)) {
      const received = await execute(swap.from, swap.to, parseUnits(swap.amount, swap.decimals))
      // Sold back (itself an executed route, checked the same way): the split case buys $2M of
      // one token, and the devnet's pools are shared with files that expect catalog prices.
      await execute(swap.to, swap.from, received)
    }
    console.log(`${network} route kinds executed: ${[...kinds].sort().join(', ')}`)
    expect([...kinds].sort()).toEqual(['mixed', 'native in', 'native out', 'split', 'v2', 'v3'])
  })
})
