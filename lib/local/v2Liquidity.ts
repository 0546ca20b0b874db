import {
  type Address,
  encodeFunctionData,
  encodePacked,
  getCreate2Address,
  keccak256,
  maxUint256,
  parseUnits,
} from 'viem'
import type { PlannedTransaction } from './deployV3'
import type { SampleToken } from './sampleCatalogTypes'
import { UNISWAP_V2_PAIR_INIT_CODE_HASH, uniswapV2Router02Abi } from './uniswapV2Artifacts'

// The demo V2 pools of a devnet (lib/local/deployDex.ts): one addLiquidity per pool at the
// catalog's prices, and the pairs' addresses, known before they exist.

/** USD on each side of every seeded pool, so a pool holds $10M and demo swaps barely move it. */
export const POOL_SIDE_USD = 5_000_000n

const PRICE_DECIMALS = 18

/** Pair addresses are derived with CREATE2, as Router02's `pairFor` does. */
export type DeployedPair = { address: Address; token0: Address; token1: Address }

export type PoolToken = Pick<
  SampleToken,
  'symbol' | 'decimals' | 'usdPrice' | 'circulatingSupply'
> & {
  address: Address
}

export type PoolPlan = { token: PoolToken; quote: PoolToken | 'native' }

/** One addLiquidity(ETH) call per pool, each side worth POOL_SIDE_USD at catalog prices. */
export function planLiquidity(
  pools: PoolPlan[],
  {
    router,
    deployer,
    nativeUsdPrice,
  }: { router: Address; deployer: Address; nativeUsdPrice: string },
): { transactions: PlannedTransaction[]; nativeAmount: bigint } {
  const pooled = new Map<PoolToken, bigint>()
  const take = (token: PoolToken) => {
    const amount = amountForUsd(token, POOL_SIDE_USD)
    pooled.set(token, (pooled.get(token) ?? 0n) + amount)
    return amount
  }
  let nativeAmount = 0n
  const transactions = pools.map(({ token, quote }): PlannedTransaction => {
    const tokenAmount = take(token)
    if (quote === 'native') {
      const value = amountForUsd({ decimals: 18, usdPrice: nativeUsdPrice }, POOL_SIDE_USD)
      nativeAmount += value
      return {
        label: `add ${token.symbol}/native liquidity`,
        to: router,
        value,
        data: encodeFunctionData({
          abi: uniswapV2Router02Abi,
          functionName: 'addLiquidityETH',
          // Minimums equal the desired amounts: the pool is new, so nothing may be trimmed.
          args: [token.address, tokenAmount, tokenAmount, value, deployer, maxUint256],
        }),
      }
    }
    const quoteAmount = take(quote)
    return {
      label: `add ${token.symbol}/${quote.symbol} liquidity`,
      to: router,
      data: encodeFunctionData({
        abi: uniswapV2Router02Abi,
        functionName: 'addLiquidity',
        args: [
          token.address,
          quote.address,
          tokenAmount,
          quoteAmount,
          tokenAmount,
          quoteAmount,
          deployer,
          maxUint256,
        ],
      }),
    }
  })
  for (const [token, amount] of pooled) {
    if (amount > parseUnits(token.circulatingSupply, token.decimals)) {
      throw new Error(`${token.symbol} circulating supply cannot fund its pools`)
    }
  }
  return { transactions, nativeAmount }
}

/** Smallest units of `asset` worth `usd` at its catalog price (rounded down). */
function amountForUsd(asset: { decimals: number; usdPrice: string }, usd: bigint): bigint {
  const price = parseUnits(asset.usdPrice, PRICE_DECIMALS)
  if (price <= 0n) throw new Error(`price must be positive, got ${asset.usdPrice}`)
  return (usd * 10n ** BigInt(asset.decimals + PRICE_DECIMALS)) / price
}

/** The factory creates pairs with CREATE2, so their addresses are known before they exist. */
export function pairOf(factory: Address, tokenA: Address, tokenB: Address): DeployedPair {
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  const address = getCreate2Address({
    from: factory,
    salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
    bytecodeHash: UNISWAP_V2_PAIR_INIT_CODE_HASH,
  })
  return { address, token0, token1 }
}
