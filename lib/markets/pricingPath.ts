import { type Address, isAddressEqual } from 'viem'
import { onChain } from '../chain/chainError'
import type { Pool } from '../routing/pools/pool'
import { depthWithin, thinnerSide } from '../routing/pools/poolDepth'
import { type Fraction, midPrice } from '../routing/pools/midPrice'
import { pairKey, pairsAlong, poolsByPair } from '../routing/providers/tokenPairs'
import { readPools } from '../routing/providers/readPools'
import { enumeratePaths } from '../routing/paths/enumeratePaths'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { usdDecimals } from './usdDecimals'
import {
  type HopPool,
  hopPools,
  type PathHop,
  pathPools,
  type PricingPath,
} from '../db/priceBoundary'
import { compareFractions } from './weightedMedian'

/** Catalog tokens tried as the middle of a path (the deepest few by market cap first). */
export const PATH_CONNECTORS = 8
/** The band a pool's depth is measured in: ±2 % of its price (DECISIONS §9.2). */
export const DEPTH_BAND_BPS = 200
/** A kept path gives way once it is less than half as deep as the best: paths change rarely. */
const REPLACE_FACTOR = 2n
/** A pool enters its hop's median with at least a tenth of the depth of the hop's deepest. */
const MEDIAN_SHARE = 10n

export interface ChoosePricingPathParameters {
  network: NetworkName
  token: Address
  decimals: number
  /** Catalog tokens that may connect the token to a base token, in order of preference. */
  connectors?: readonly Address[]
  /** The path kept so far: it stays unless it is less than half as deep as the best. */
  current?: PricingPath
}

/** A pool of a hop, rated: its depth within ±2 % in tokenOut, and its price. */
interface RatedPool {
  pool: Pool
  zeroForOne: boolean
  /** The thinner side of its ±2 % depth, in tokenOut base units. */
  depthOut: bigint
  /** tokenOut base units per tokenIn base unit. */
  price: Fraction
}

/** A route of tokens with its pools: each hop's qualifying pools, and how deep it is in USD. */
interface Candidate {
  route: readonly Address[]
  hops: PathHop[]
  /** Its thinnest hop's deepest pool, in USD base units. */
  depthUsd: Fraction
}

const routeKey = (route: readonly Address[]) => route.map((a) => a.toLowerCase()).join('>')

/** A pool's ±2 % depth as a path weighs it: the thinner side, in the hop's tokenOut. */
function depthOutOf(pool: Pool, zeroForOne: boolean): bigint {
  return thinnerSide(pool, depthWithin(pool, DEPTH_BAND_BPS), zeroForOne)
}

function ratePool(pool: Pool, tokenIn: Address): RatedPool {
  const zeroForOne = isAddressEqual(pool.token0, tokenIn)
  const depthOut = depthOutOf(pool, zeroForOne)
  return { pool, zeroForOne, depthOut, price: midPrice(pool, zeroForOne) }
}

function hopPoolOf({ pool, zeroForOne, depthOut }: RatedPool): HopPool {
  return {
    protocol: pool.protocol,
    pool: pool.address,
    zeroForOne,
    ...(pool.protocol === 'v3' ? { fee: pool.state.fee } : {}),
    depth: depthOut.toString(),
  }
}

/** The path's id: each hop's pools and directions, so readings of other pools are never mixed. */
function pathIdOf(hops: readonly PathHop[]): string {
  return hops
    .map((hop) =>
      hopPools(hop)
        .map((pool) => `${pool.protocol}:${pool.pool.toLowerCase()}:${pool.zeroForOne ? 0 : 1}`)
        .join('+'),
    )
    .join('>')
}

/**
 * A route's pools and depth: each hop's pools rated by their ±2 % depth, the deepest deciding how
 * deep the hop is, and those holding at least a tenth of its depth entering the hop's median
 * (DECISIONS §9.2), in address order (so the path's id does not change when two swap ranks). A
 * route is as deep as its thinnest hop, valued in USD at its pools' prices walking back from the
 * stablecoin. Undefined when a hop has no pool with depth.
 */
function rateRoute(route: readonly Address[], poolsOf: Map<string, Pool[]>): Candidate | undefined {
  const hops: PathHop[] = []
  const deepest: RatedPool[] = []
  for (let index = 0; index + 1 < route.length; index += 1) {
    const [tokenIn, tokenOut] = [route[index], route[index + 1]] as [Address, Address]
    const rated = (poolsOf.get(pairKey(tokenIn, tokenOut)) ?? [])
      .map((pool) => ratePool(pool, tokenIn))
      .sort((a, b) => (a.depthOut > b.depthOut ? -1 : a.depthOut < b.depthOut ? 1 : 0))
    const [best] = rated
    if (!best || best.depthOut <= 0n) return undefined
    const [first, ...more] = rated
      .filter((pool) => pool.depthOut * MEDIAN_SHARE >= best.depthOut)
      .sort((a, b) => (a.pool.address.toLowerCase() < b.pool.address.toLowerCase() ? -1 : 1))
      .map(hopPoolOf)
    if (!first) return undefined
    hops.push({ ...first, tokenIn, tokenOut, ...(more.length > 0 ? { more } : {}) })
    deepest.push(best)
  }
  // Walk back from the stablecoin: `usdPerOut` is USD (base units) per base unit of tokenOut.
  let usdPerOut: Fraction = { num: 1n, den: 1n }
  let depthUsd: Fraction | undefined
  for (let index = deepest.length - 1; index >= 0; index -= 1) {
    const { depthOut, price } = deepest[index] as RatedPool
    const hopUsd = { num: depthOut * usdPerOut.num, den: usdPerOut.den }
    if (!depthUsd || compareFractions(hopUsd, depthUsd) < 0) depthUsd = hopUsd
    usdPerOut = { num: usdPerOut.num * price.num, den: usdPerOut.den * price.den }
  }
  return depthUsd && { route, hops, depthUsd }
}

/** Deeper first; then fewer hops; then by id, so the choice never depends on read order. */
function better(a: Candidate, b: Candidate): boolean {
  const byDepth = compareFractions(a.depthUsd, b.depthUsd)
  if (byDepth !== 0) return byDepth > 0
  if (a.hops.length !== b.hops.length) return a.hops.length < b.hops.length
  return pathIdOf(a.hops) < pathIdOf(b.hops)
}

/** The tokens a stored path runs through. */
function routeOf(path: PricingPath): Address[] {
  const [first] = path.hops
  return first ? [first.tokenIn, ...path.hops.map((hop) => hop.tokenOut)] : []
}

/**
 * The pools a token's USD price is read from (DECISIONS §8.3, §9.2): the deepest chain to the
 * network's USD stablecoin, directly, through the wrapped native coin, or through a catalog token
 * (and on to the stablecoin or through the native coin), over the V2 pair and every V3 fee tier
 * of each pair. Depth is each pool's within ±2 % of its price (V3 from its ticks, V2 from its
 * reserves), which a narrow position cannot fake; a path is as deep as its thinnest hop. Each hop
 * keeps every pool of its pair holding at least a tenth of its deepest pool's depth, weighted by
 * depth. The path kept so far stays (with its pools rated again) unless it is less than half as
 * deep as the best. One lens round trip; undefined when no path exists.
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
  const tokenDecimals = decimals
  if (isAddressEqual(token, usd)) {
    return { id: 'usd', hops: [], tokenDecimals, usdDecimals: stableDecimals }
  }
  const middles = connectors
    .filter((address) => ![token, usd, native].some((other) => isAddressEqual(address, other)))
    .slice(0, PATH_CONNECTORS)
  // The pairs read: those of these shapes (the candidates are then enumerated over their pools).
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
  // The kept path is rated on the same read, even through a connector no longer among the few.
  const kept = current ? routeOf(current) : []
  if (kept.length > 1 && !routes.some((route) => routeKey(route) === routeKey(kept))) {
    routes.push(kept)
  }
  const pools = await onChain(network, () => readPools({ network, pairs: pairsAlong(routes) }))
  // The candidate routes: every path the routing engine's enumerator finds over those pools
  // (the shapes above, and the native coin before a catalog token where both pool with it),
  // once per sequence of tokens: a hop weighs every pool of its pair.
  const candidates = new Map<string, Address[]>()
  for (const path of enumeratePaths({
    pools,
    tokenIn: token,
    tokenOut: usd,
    through: [native, ...middles, ...kept.slice(1, -1)],
  })) {
    const tokens = [token, ...path.map((hop) => hop.tokenOut)]
    candidates.set(routeKey(tokens), tokens)
  }
  const poolsOf = poolsByPair(pools)

  let best: Candidate | undefined
  let keptCandidate: Candidate | undefined
  for (const route of candidates.values()) {
    const candidate = rateRoute(route, poolsOf)
    if (!candidate) continue
    if (kept.length > 1 && routeKey(route) === routeKey(kept)) keptCandidate = candidate
    if (!best || better(candidate, best)) best = candidate
  }
  if (!best) return undefined
  // The kept path gives way only once the best is more than twice as deep.
  const keptHolds =
    keptCandidate !== undefined &&
    compareFractions(
      { num: keptCandidate.depthUsd.num * REPLACE_FACTOR, den: keptCandidate.depthUsd.den },
      best.depthUsd,
    ) >= 0
  const chosen = keptHolds && keptCandidate ? keptCandidate : best
  return {
    id: pathIdOf(chosen.hops),
    hops: chosen.hops,
    tokenDecimals,
    usdDecimals: stableDecimals,
  }
}

/**
 * A sample of a path's depth (DECISIONS §10.4): each of its pools' ±2 % depth now, in its hop's
 * tokenOut, as the review rates it, by lower-cased pool address; 0 for a pool the lens finds
 * empty. One lens round trip over the hops' pairs (ceil(pools of the pairs / 24) eth_calls: one
 * for a path of up to 6 hops on Ethereum's V2 and 3 fee tiers). Nothing to read for the
 * stablecoin.
 */
export async function samplePathDepths({
  network,
  path,
}: {
  network: NetworkName
  path: PricingPath
}): Promise<Map<string, bigint>> {
  const depths = new Map<string, bigint>()
  if (path.hops.length === 0) return depths
  const pairs = pairsAlong(path.hops.map((hop) => [hop.tokenIn, hop.tokenOut]))
  const pools = await onChain(network, () => readPools({ network, pairs }))
  const byAddress = new Map(pools.map((pool) => [pool.address.toLowerCase(), pool]))
  for (const hopPool of pathPools(path)) {
    const pool = byAddress.get(hopPool.pool.toLowerCase())
    depths.set(hopPool.pool.toLowerCase(), pool ? depthOutOf(pool, hopPool.zeroForOne) : 0n)
  }
  return depths
}

/** The depths a review rated the path's pools with: the sample of the run that reviewed it. */
export function reviewedDepths(path: PricingPath): Map<string, bigint> {
  return new Map(
    pathPools(path).map((pool) => [pool.pool.toLowerCase(), BigInt(pool.depth ?? '0')]),
  )
}
