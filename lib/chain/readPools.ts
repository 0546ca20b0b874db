import { call } from 'viem/actions'
import { type Address, decodeFunctionResult, encodeFunctionData } from 'viem'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { untrustedCallGas } from './callBudget'
import { onChain } from './chainError'
import { publicClient } from './clients'
import type { Pool } from './pools/pool'
import { POOL_LENS_ADDRESS, POOL_LENS_RUNTIME, poolLensAbi } from './poolLens'

/**
 * Pool lookups per lens call: a lookup that finds no pool costs ~5,000 gas, a V3 pool read with
 * its ticks ~30,000-150,000; 24 stay well under the
 * UNTRUSTED_CALL_GAS cap (3,000,000 by default) on mainnet-shaped pools.
 */
export const LOOKUPS_PER_CALL = 24
/** Bitmap words read each side of the price's word (a word is 256 tick spacings). */
export const WORDS_EACH_SIDE = 2
/** Initialized ticks read per pool at most; a word that would pass it is left out whole. */
export const MAX_TICKS_PER_POOL = 48
/** Uniswap V2's fee; PancakeSwap V2 takes 25. */
export const V2_FEE_BPS = 30

interface Lookup {
  version: number
  factory: Address
  tokenA: Address
  tokenB: Address
  fee: number
}

/** The V2 pair and every configured V3 fee tier of each token pair. */
export function poolLookups(network: NetworkName, pairs: readonly [Address, Address][]): Lookup[] {
  const { factory, v3 } = loadChainConfig(network)
  return pairs.flatMap(([tokenA, tokenB]) => [
    { version: 2, factory, tokenA, tokenB, fee: 0 },
    ...(v3?.feeTiers ?? []).map((fee) => ({
      version: 3,
      factory: v3?.factory ?? factory,
      tokenA,
      tokenB,
      fee,
    })),
  ])
}

export interface ReadPoolsParameters {
  network: NetworkName
  pairs: readonly [Address, Address][]
  lookupsPerCall?: number
  /** The block to read (default: the latest). */
  blockNumber?: bigint
}

/**
 * The state of every pool of `pairs` (V2 pairs and V3 pools of the configured tiers), read by
 * PoolLens placed by state override: ceil(lookups / lookupsPerCall) eth_calls, all sent at once so
 * the transport batches them into one round trip. The lens reads pools named by caller-chosen
 * tokens, so each call is capped and counted like any call into code a caller chose (callBudget).
 */
export async function readPools({
  network,
  pairs,
  lookupsPerCall = LOOKUPS_PER_CALL,
  blockNumber,
}: ReadPoolsParameters): Promise<Pool[]> {
  const lookups = poolLookups(network, pairs)
  const chunks: Lookup[][] = []
  for (let start = 0; start < lookups.length; start += lookupsPerCall) {
    chunks.push(lookups.slice(start, start + lookupsPerCall))
  }
  const client = publicClient(network)
  const answers = await Promise.all(
    chunks.map((chunk) => {
      // Taken before the call, so a spent budget refuses the request before anything leaves.
      const gas = untrustedCallGas()
      return onChain(network, () =>
        call(client, {
          to: POOL_LENS_ADDRESS,
          data: encodeFunctionData({
            abi: poolLensAbi,
            functionName: 'read',
            args: [chunk, BigInt(WORDS_EACH_SIDE), BigInt(MAX_TICKS_PER_POOL)],
          }),
          stateOverride: [{ address: POOL_LENS_ADDRESS, code: POOL_LENS_RUNTIME }],
          gas,
          ...(blockNumber === undefined ? {} : { blockNumber }),
        }).then(({ data }) =>
          decodeFunctionResult({ abi: poolLensAbi, functionName: 'read', data: data ?? '0x' }),
        ),
      ).then((states) => states.map((state, index) => ({ state, lookup: chunk[index] })))
    }),
  )
  return answers.flat().flatMap(({ state, lookup }): Pool[] => {
    if (!lookup || state.pool === '0x0000000000000000000000000000000000000000') return []
    const token0 = state.token0
    const token1 =
      token0.toLowerCase() === lookup.tokenA.toLowerCase() ? lookup.tokenB : lookup.tokenA
    if (lookup.version === 2) {
      if (state.reserve0 === 0n || state.reserve1 === 0n) return []
      return [
        {
          protocol: 'v2',
          address: state.pool,
          token0,
          token1,
          state: { reserve0: state.reserve0, reserve1: state.reserve1, feeBps: V2_FEE_BPS },
        },
      ]
    }
    if (state.reserve0 === 0n || state.tickSpacing <= 0) return []
    return [
      {
        protocol: 'v3',
        address: state.pool,
        token0,
        token1,
        state: {
          sqrtPriceX96: state.reserve0,
          tick: state.tick,
          liquidity: state.reserve1,
          fee: lookup.fee,
          tickSpacing: state.tickSpacing,
          ticks: state.ticks.map((index, position) => ({
            index,
            liquidityNet: state.liquidityNets[position] ?? 0n,
          })),
          knownWords: { lower: state.wordLower, upper: state.wordUpper },
        },
      },
    ]
  })
}
