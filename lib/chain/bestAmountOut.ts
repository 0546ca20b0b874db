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

/** Candidate paths: direct, and through the wrapped native coin when neither side is it. */
export function candidatePaths(tokenIn: Address, tokenOut: Address, wrappedNative: Address) {
  const direct = [tokenIn, tokenOut]
  const touchesWrapped =
    isAddressEqual(tokenIn, wrappedNative) || isAddressEqual(tokenOut, wrappedNative)
  return touchesWrapped ? [direct] : [direct, [tokenIn, wrappedNative, tokenOut]]
}

/**
 * The router's exact output for `amountIn`, on the better of the candidate paths; the paths are
 * asked in parallel. A path without a pair reverts and is skipped; none left is a 422.
 */
export async function bestAmountOut({
  network,
  amountIn,
  tokenIn,
  tokenOut,
}: BestAmountOutParameters): Promise<BestAmountOutReturnType> {
  const { router, wrappedNative } = loadChainConfig(network)
  const client = publicClient(network)
  const quotes = await Promise.all(
    candidatePaths(tokenIn, tokenOut, wrappedNative).map((path) =>
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
