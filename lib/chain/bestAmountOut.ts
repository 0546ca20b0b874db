import { readContract } from 'viem/actions'
import { type Address, BaseError, ContractFunctionExecutionError, isAddressEqual } from 'viem'
import type { NetworkName } from '../config'
import { loadChainConfig } from '../config'
import { Unprocessable } from '../errors'
import { uniswapV2RouterAbi } from './abis'
import { onChain } from './chainError'
import { publicClient } from './clients'

export interface BestAmountOutParameters {
  network: NetworkName
  amountIn: bigint
  tokenIn: Address
  tokenOut: Address
}

export interface BestAmountOutReturnType {
  amountOut: bigint
  path: Address[]
}

/** DECISIONS §7.2: routes of up to 3 hops (4 tokens). */
export const MAX_HOPS = 3

/**
 * Every simple path from `tokenIn` to `tokenOut` of at most MAX_HOPS hops whose intermediate
 * tokens are base tokens: the direct pair, one base between, or two different bases between.
 */
export function candidatePaths(
  tokenIn: Address,
  tokenOut: Address,
  baseTokens: readonly Address[],
): Address[][] {
  const ends = [tokenIn, tokenOut]
  const between = baseTokens.filter((base) => !ends.some((end) => isAddressEqual(end, base)))
  const paths: Address[][] = [[tokenIn, tokenOut]]
  for (const first of between) {
    paths.push([tokenIn, first, tokenOut])
    if (MAX_HOPS < 3) continue
    for (const second of between) {
      if (!isAddressEqual(first, second)) paths.push([tokenIn, first, second, tokenOut])
    }
  }
  return paths
}

/**
 * The router's exact output for `amountIn` on the best candidate path. All candidates are asked
 * at once, so the transport sends them as one JSON-RPC batch (one round trip). A path without a
 * pair reverts and is skipped; none left is a 422.
 */
export async function bestAmountOut({
  network,
  amountIn,
  tokenIn,
  tokenOut,
}: BestAmountOutParameters): Promise<BestAmountOutReturnType> {
  const { router, baseTokens } = loadChainConfig(network)
  const client = publicClient(network)
  const quotes = await Promise.all(
    candidatePaths(tokenIn, tokenOut, baseTokens).map((path) =>
      onChain(network, () =>
        readContract(client, {
          address: router,
          abi: uniswapV2RouterAbi,
          functionName: 'getAmountsOut',
          args: [amountIn, path],
        }),
      )
        .then((amounts) => ({ amountOut: amounts[amounts.length - 1] ?? 0n, path }))
        .catch((error: unknown) => {
          // A missing pair or an empty reserve reverts inside the router: not a route.
          if (error instanceof Unprocessable || error instanceof ContractFunctionExecutionError) {
            return undefined
          }
          if (error instanceof BaseError && error.name === 'ContractFunctionZeroDataError')
            return undefined
          throw error
        }),
    ),
  )
  // Ties go to the shorter path (fewer hops, less gas): candidates come shortest first.
  const best = quotes
    .filter(
      (quote): quote is BestAmountOutReturnType => quote !== undefined && quote.amountOut > 0n,
    )
    .reduce<BestAmountOutReturnType | undefined>(
      (winner, quote) => (!winner || quote.amountOut > winner.amountOut ? quote : winner),
      undefined,
    )
  if (!best) throw new Unprocessable(`no liquidity path between these tokens on ${network}`)
  return best
}
