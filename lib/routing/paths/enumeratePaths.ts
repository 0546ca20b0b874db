import type { Address } from 'viem'
import { otherToken, type Pool, sameToken } from '../pools/pool'

/** DECISIONS §7.2, §9.3: paths of up to 3 hops (4 tokens). schemas/limits.ts repeats it. */
export const MAX_HOPS = 3

/** One hop of a path: a pool and the way through it. */
export interface Hop {
  pool: Pool
  tokenIn: Address
  tokenOut: Address
}

export interface EnumeratePathsParameters {
  pools: readonly Pool[]
  tokenIn: Address
  tokenOut: Address
  /** The tokens a path may pass through (any other token is only ever an end). */
  through: readonly Address[]
  /** At most MAX_HOPS (the default). */
  maxHops?: number
  /** A hop a path may take (default: any); e.g. V2 only where a token takes a transfer fee. */
  allowHop?: (hop: Hop) => boolean
}

/**
 * Every simple path from `tokenIn` to `tokenOut` of at most `maxHops` hops whose intermediate
 * tokens are among `through`, each hop any pool of its pair (V2 and V3 mixed): the one path
 * enumerator of the service (quotes, the sampler's prices and the pricing paths all search
 * these). Shorter paths first, then in the order of `pools`.
 */
export function enumeratePaths({
  pools,
  tokenIn,
  tokenOut,
  through,
  maxHops = MAX_HOPS,
  allowHop = () => true,
}: EnumeratePathsParameters): Hop[][] {
  const hops = Math.min(maxHops, MAX_HOPS)
  const key = (token: Address) => token.toLowerCase()
  const allowed = new Set(through.map(key))
  allowed.delete(key(tokenIn))
  allowed.delete(key(tokenOut))
  // Each token's pools, once, in the order given.
  const poolsOf = new Map<string, Pool[]>()
  for (const pool of pools) {
    for (const token of [pool.token0, pool.token1]) {
      const list = poolsOf.get(key(token)) ?? []
      if (!list.includes(pool)) list.push(pool)
      poolsOf.set(key(token), list)
    }
  }
  const found: Hop[][][] = Array.from({ length: hops + 1 }, () => [])
  const walk = (token: Address, visited: Set<string>, path: Hop[]) => {
    for (const pool of poolsOf.get(key(token)) ?? []) {
      const next = otherToken(pool, token)
      if (!next || visited.has(key(next))) continue
      const hop = { pool, tokenIn: token, tokenOut: next }
      if (!allowHop(hop)) continue
      if (sameToken(next, tokenOut)) {
        found[path.length + 1]?.push([...path, hop])
      } else if (path.length + 2 <= hops && allowed.has(key(next))) {
        visited.add(key(next))
        walk(next, visited, [...path, hop])
        visited.delete(key(next))
      }
    }
  }
  if (!sameToken(tokenIn, tokenOut)) walk(tokenIn, new Set([key(tokenIn)]), [])
  return found.flat()
}
