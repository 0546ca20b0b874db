import { type Address, isAddressEqual } from 'viem'
import { onChain } from '../chain/chainError'
import type { Pool } from '../chain/pools/pool'
import { readPools } from '../chain/readPools'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { usdDecimals } from './usdDecimals'
import type { PathHop, PricingPath } from '../db/priceBoundary'

/** Catalog tokens tried as the middle of a path (the deepest few by market cap first). */
export const PATH_CONNECTORS = 8
/** A kept path gives way only to one this many times deeper: paths change rarely. */
const REPLACE_FACTOR = 2

export interface ChoosePricingPathParameters {
  network: NetworkName
  token: Address
  decimals: number
  /** Catalog tokens that may connect the token to a base token, in order of preference. */
  connectors?: readonly Address[]
  /** The path kept so far: it stays unless the best is REPLACE_FACTOR times deeper. */
  current?: PricingPath
}

const pairKey = (a: Address, b: Address) => [a.toLowerCase(), b.toLowerCase()].sort().join('/')

/** A pool's price of tokenIn in tokenOut base units, and its depth in tokenOut (virtual reserve). */
function hopFigures(pool: Pool, zeroForOne: boolean): { price: number; depthOut: number } {
  if (pool.protocol === 'v2') {
    const [reserveIn, reserveOut] = zeroForOne
      ? [pool.state.reserve0, pool.state.reserve1]
      : [pool.state.reserve1, pool.state.reserve0]
    return { price: Number(reserveOut) / Number(reserveIn), depthOut: Number(reserveOut) }
  }
  // In range, a V3 pool trades like a V2 pair holding L/√P of token0 and L·√P of token1.
  const sqrtPrice = Number(pool.state.sqrtPriceX96) / 2 ** 96
  const liquidity = Number(pool.state.liquidity)
  const price1Per0 = sqrtPrice * sqrtPrice
  return zeroForOne
    ? { price: price1Per0, depthOut: liquidity * sqrtPrice }
    : { price: 1 / price1Per0, depthOut: sqrtPrice === 0 ? 0 : liquidity / sqrtPrice }
}

/** A path's depth: its thinnest hop's tokenOut side, in USD. */
function depthUsd(pools: readonly Pool[], hops: readonly PathHop[], usdScale: number): number {
  const figures = hops.map((hop, index) => {
    const pool = pools[index]
    return pool ? hopFigures(pool, hop.zeroForOne) : { price: 0, depthOut: 0 }
  })
  let depth = Number.POSITIVE_INFINITY
  // Walk back from the stablecoin: `usdPerOut` is USD (base units) per base unit of tokenOut.
  let usdPerOut = 1
  for (let index = figures.length - 1; index >= 0; index -= 1) {
    const { price, depthOut } = figures[index] ?? { price: 0, depthOut: 0 }
    depth = Math.min(depth, (depthOut * usdPerOut) / usdScale)
    usdPerOut *= price
  }
  return Number.isFinite(depth) ? depth : 0
}

function pathIdOf(hops: readonly PathHop[]): string {
  return hops
    .map((hop) => `${hop.protocol}:${hop.pool.toLowerCase()}:${hop.zeroForOne ? 0 : 1}`)
    .join('>')
}

/**
 * The pools a token's USD price is read from (DECISIONS §8.3): the deepest chain to the network's
 * USD stablecoin, directly, through the wrapped native coin, or through a catalog token (and on
 * to the stablecoin or through the native coin), over the V2 pair and every V3 fee tier of each
 * pair. A path is as deep as its thinnest hop (a pool's virtual reserves at its price, in USD):
 * the cheapest place to push the price. One lens round trip; undefined when no path exists.
 */
export async function choosePricingPath({
  network,
  token,
  decimals,
  connectors = [],
  current,
}: ChoosePricingPathParameters): Promise<PricingPath | undefined> {
  const { usdStablecoin: usd, wrappedNative: native } = loadChainConfig(network)
  const stableDecimals = await usdDecimals(network)
  const usdScale = 10 ** stableDecimals
  const tokenDecimals = decimals
  if (isAddressEqual(token, usd)) {
    return { id: 'usd', hops: [], tokenDecimals, usdDecimals: stableDecimals }
  }
  const middles = connectors
    .filter((address) => ![token, usd, native].some((other) => isAddressEqual(address, other)))
    .slice(0, PATH_CONNECTORS)
  const routes: Address[][] = isAddressEqual(token, native)
    ? [[native, usd]]
    : [
        [token, usd],
        [token, native, usd],
        ...middles.flatMap((middle) => [
          [token, middle, usd],
          [token, middle, native, usd],
        ]),
      ]
  const pairs = new Map<string, [Address, Address]>()
  for (const route of routes) {
    for (let index = 0; index + 1 < route.length; index += 1) {
      const [a, b] = [route[index], route[index + 1]] as [Address, Address]
      pairs.set(pairKey(a, b), [a, b])
    }
  }
  const pools = await onChain(network, () => readPools({ network, pairs: [...pairs.values()] }))
  const poolsOf = new Map<string, Pool[]>()
  for (const pool of pools) {
    const key = pairKey(pool.token0, pool.token1)
    poolsOf.set(key, [...(poolsOf.get(key) ?? []), pool])
  }

  let best: { hops: PathHop[]; pools: Pool[]; depth: number } | undefined
  const consider = (hops: PathHop[], chosen: Pool[]) => {
    const depth = depthUsd(chosen, hops, usdScale)
    if (depth <= 0) return
    const better =
      !best ||
      depth > best.depth ||
      (depth === best.depth &&
        (hops.length < best.hops.length ||
          (hops.length === best.hops.length && pathIdOf(hops) < pathIdOf(best.hops))))
    if (better) best = { hops, pools: chosen, depth }
  }
  for (const route of routes) {
    // Every combination of one pool per hop (at most 5 pools a pair).
    let partial: Array<{ hops: PathHop[]; pools: Pool[] }> = [{ hops: [], pools: [] }]
    for (let index = 0; index + 1 < route.length; index += 1) {
      const [tokenIn, tokenOut] = [route[index], route[index + 1]] as [Address, Address]
      const candidates = poolsOf.get(pairKey(tokenIn, tokenOut)) ?? []
      partial = partial.flatMap((sofar) =>
        candidates.map((pool) => ({
          hops: [
            ...sofar.hops,
            {
              protocol: pool.protocol,
              pool: pool.address,
              tokenIn,
              tokenOut,
              zeroForOne: isAddressEqual(pool.token0, tokenIn),
              ...(pool.protocol === 'v3' ? { fee: pool.state.fee } : {}),
            },
          ],
          pools: [...sofar.pools, pool],
        })),
      )
    }
    for (const { hops, pools: chosen } of partial) consider(hops, chosen)
  }
  if (!best) return undefined
  const chosen = { hops: best.hops, depth: best.depth }
  if (current && current.hops.length > 0) {
    const kept = current.hops.map((hop) =>
      pools.find((pool) => isAddressEqual(pool.address, hop.pool)),
    )
    if (kept.every((pool) => pool !== undefined)) {
      const keptDepth = depthUsd(kept, current.hops, usdScale)
      if (keptDepth * REPLACE_FACTOR >= chosen.depth) return current
    }
  }
  return {
    id: pathIdOf(chosen.hops),
    hops: chosen.hops,
    tokenDecimals,
    usdDecimals: stableDecimals,
  }
}
