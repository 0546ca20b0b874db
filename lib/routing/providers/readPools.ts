import { call } from 'viem/actions'
import { type Address, type Hex, zeroAddress } from 'viem'
import { loadChainConfig } from '../../config'
import type { NetworkName } from '../../networkNames'
import { untrustedCallGas } from '../../chain/callBudget'
import { onChain } from '../../chain/chainError'
import { publicClient } from '../../chain/clients'
import type { Pool } from '../pools/pool'
import { MAX_TICK, MIN_TICK } from '../pools/tickMath'
import type { InitializedTick, V3PoolState } from '../pools/v3Pool'
import { POOL_LENS_ADDRESS, POOL_LENS_RUNTIME } from '../../chain/poolLens'
import {
  decodeLensPage,
  decodeLensRead,
  encodeLensPage,
  encodeLensRead,
  type LensLookup,
} from '../../chain/poolLensCodec'

/**
 * Pool lookups per lens call: a lookup that finds no pool costs ~5,000 gas, a V3 pool read with
 * a few ticks ~30,000-150,000 (each tick read ~10,000); the lens stops reading ticks when its gas
 * runs low, so a crowded pool narrows its own view, never fails the call.
 */
export const LOOKUPS_PER_CALL = 24
/** Bitmap words scanned each way from the price at first (the price's own word counting). */
export const WORDS_EACH_SIDE = 3
/**
 * Initialized ticks read each way at first, at most: more than the few positions a real pool
 * keeps near its price; a pool crowded with more (dust positions, issue 32) is read that far
 * and, where a quote needs it, paged on (pageTicks), never taken as empty or as endless.
 */
export const TICKS_EACH_SIDE = 40
/** A page: bitmap words and ticks read on from the edge of what was read, one way. */
export const PAGE_WORDS = 64
export const PAGE_TICKS = 96
/** Pages per lens call (each may read PAGE_TICKS ticks). */
export const PAGES_PER_CALL = 4

type Lookup = LensLookup

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
 * A V3 pool's ticks come ascending, with the range a swap may reach on them (V3PoolState.known).
 */
export async function readPools({
  network,
  pairs,
  lookupsPerCall = LOOKUPS_PER_CALL,
  blockNumber,
}: ReadPoolsParameters): Promise<Pool[]> {
  const { v2FeeBps } = loadChainConfig(network)
  const lookups = poolLookups(network, pairs)
  const chunks: Lookup[][] = []
  for (let start = 0; start < lookups.length; start += lookupsPerCall) {
    chunks.push(lookups.slice(start, start + lookupsPerCall))
  }
  const answers = await Promise.all(
    chunks.map((chunk) =>
      lensCall(
        network,
        blockNumber,
        encodeLensRead(chunk, BigInt(WORDS_EACH_SIDE), BigInt(TICKS_EACH_SIDE)),
      ).then((data) =>
        decodeLensRead(data).map((state, index) => ({ state, lookup: chunk[index] })),
      ),
    ),
  )
  return answers.flat().flatMap(({ state, lookup }): Pool[] => {
    if (!lookup || state.pool === zeroAddress) return []
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
          state: { reserve0: state.reserve0, reserve1: state.reserve1, feeBps: v2FeeBps },
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
          ticks: ascending(ticksOf(state.ticks, state.liquidityNets)),
          known: knownRange(state.scannedLower, state.scannedUpper, state.tickSpacing),
        },
      },
    ]
  })
}

/** A V3 pool to read further, and which way: up (the price rising: token1 in) or down. */
export interface TickPage {
  pool: Extract<Pool, { protocol: 'v3' }>
  up: boolean
}

export interface PageTicksParameters {
  network: NetworkName
  pages: readonly TickPage[]
  /** The block the pools were read at. */
  blockNumber?: bigint
}

/**
 * The pools of `pages` with PAGE_WORDS more bitmap words read on from the edge of what they
 * know, each its own way (a pool already known to the end of the range that way is returned as
 * it is): ceil(pages / PAGES_PER_CALL) lens calls in one round trip, each capped and counted.
 */
export async function pageTicks({
  network,
  pages,
  blockNumber,
}: PageTicksParameters): Promise<Extract<Pool, { protocol: 'v3' }>[]> {
  const requests = pages.flatMap(({ pool, up }) => {
    const { known, tickSpacing } = pool.state
    if (!known) return []
    const edge = up ? known.upper : known.lower
    if (edge <= MIN_TICK || edge >= MAX_TICK) return []
    return [{ pool, up, start: edge / tickSpacing }]
  })
  const chunks: (typeof requests)[] = []
  for (let start = 0; start < requests.length; start += PAGES_PER_CALL) {
    chunks.push(requests.slice(start, start + PAGES_PER_CALL))
  }
  const answers = await Promise.all(
    chunks.map((chunk) =>
      lensCall(
        network,
        blockNumber,
        encodeLensPage(
          chunk.map(({ pool, up, start }) => ({
            pool: pool.address,
            tickSpacing: pool.state.tickSpacing,
            start,
            up,
          })),
          BigInt(PAGE_WORDS),
          BigInt(PAGE_TICKS),
        ),
      ).then((data) =>
        decodeLensPage(data).map((state, index) => ({ state, request: chunk[index] })),
      ),
    ),
  )
  const paged = new Map<string, Extract<Pool, { protocol: 'v3' }>>()
  for (const { state, request } of answers.flat()) {
    if (!request) continue
    const key = request.pool.address.toLowerCase()
    const pool = paged.get(key) ?? request.pool
    const { known, tickSpacing } = pool.state
    const edges = known ?? { lower: MIN_TICK, upper: MAX_TICK }
    const scanned = knownRange(state.scanned, state.scanned, tickSpacing)
    paged.set(key, {
      ...pool,
      state: {
        ...pool.state,
        ticks: ascending([...pool.state.ticks, ...ticksOf(state.ticks, state.liquidityNets)]),
        known: request.up
          ? { lower: edges.lower, upper: scanned.upper }
          : { lower: scanned.lower, upper: edges.upper },
      },
    })
  }
  return pages.map(({ pool }) => paged.get(pool.address.toLowerCase()) ?? pool)
}

/** One lens call, capped and counted as a call into code a caller chose. */
function lensCall(network: NetworkName, blockNumber: bigint | undefined, data: Hex) {
  // Taken before the call, so a spent budget refuses the request before anything leaves.
  const gas = untrustedCallGas()
  return onChain(network, () =>
    call(publicClient(network), {
      to: POOL_LENS_ADDRESS,
      data,
      stateOverride: [{ address: POOL_LENS_ADDRESS, code: POOL_LENS_RUNTIME }],
      gas,
      ...(blockNumber === undefined ? {} : { blockNumber }),
    }).then(({ data: returned }) => returned ?? '0x'),
  )
}

function ticksOf(indexes: readonly number[], nets: readonly bigint[]): InitializedTick[] {
  return indexes.map((index, position) => ({ index, liquidityNet: nets[position] ?? 0n }))
}

/** Ticks ascending, each once (the lens scans down, then up; pages add to either end). */
function ascending(ticks: readonly InitializedTick[]): InitializedTick[] {
  const byIndex = new Map(ticks.map((tick) => [tick.index, tick]))
  return [...byIndex.values()].sort((a, b) => a.index - b.index)
}

/**
 * The ticks a swap may reach from compressed ticks scanned `[lower, upper]`: one spacing past
 * each, where an unread tick may sit (crossing it is unknown); the range's own ends past them.
 */
function knownRange(
  scannedLower: number,
  scannedUpper: number,
  tickSpacing: number,
): NonNullable<V3PoolState['known']> {
  return {
    lower: Math.max(MIN_TICK, (scannedLower - 1) * tickSpacing),
    upper: Math.min(MAX_TICK, (scannedUpper + 1) * tickSpacing),
  }
}
