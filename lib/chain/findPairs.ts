import { readContract } from 'viem/actions'
import type { ChainClient } from './clients'
import { type Address, getAddress, zeroAddress } from 'viem'
import { mapConcurrently } from '../mapConcurrently'
import { uniswapV2FactoryAbi } from './abis'

/** A Uniswap V2 pair; token0 sorts before token1, as the factory orders them. */
export interface DexPair {
  address: Address
  token0: Address
  token1: Address
}

export interface FindPairsParameters {
  factory: Address
  /** The tokens whose pairs are wanted. */
  tokens: readonly Address[]
  /** Further counterparts, such as the wrapped native coin and the USD stablecoin. */
  quoteTokens: readonly Address[]
}

const CONCURRENCY = 32

/**
 * The factory's pairs between each of `tokens` and every other known token: one `getPair` per
 * unordered couple (the transport batches them). Pairs against tokens nobody listed are not seen;
 * walking `allPairs` would see them but costs one read per pair of the whole DEX.
 */
export async function findPairs(
  client: ChainClient,
  { factory, tokens, quoteTokens }: FindPairsParameters,
): Promise<DexPair[]> {
  const wanted = new Set(tokens.map((token) => token.toLowerCase()))
  const all = [...new Set([...tokens, ...quoteTokens].map((token) => token.toLowerCase()))].sort()
  const couples: Array<[Address, Address]> = []
  for (let i = 0; i < all.length; i += 1) {
    for (let j = i + 1; j < all.length; j += 1) {
      const [a, b] = [all[i] as string, all[j] as string]
      if (wanted.has(a) || wanted.has(b)) couples.push([getAddress(a), getAddress(b)])
    }
  }
  const pairs = await mapConcurrently(couples, CONCURRENCY, async ([tokenA, tokenB]) => {
    const address = await readContract(client, {
      address: factory,
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [tokenA, tokenB],
    })
    return address === zeroAddress ? undefined : { address, token0: tokenA, token1: tokenB }
  })
  return pairs.filter((pair): pair is DexPair => pair !== undefined)
}
