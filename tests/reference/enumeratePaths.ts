import type { Address } from 'viem'
import { lower, type Path, type PoolInfo } from './poolTypes'

/** DECISIONS §9.3: paths of up to 3 hops. */
export const MAX_HOPS = 3

/**
 * Every simple path (no token twice) of 1..MAX_HOPS hops from `tokenIn` to `tokenOut` over
 * `pools`, any pool of a pair at each hop. A token that takes a fee on transfer may only move
 * through V2 pools (§9.3: a V3 pool checks what it received) and never in the middle of a path,
 * where the router's plumbing would decide how often it is charged.
 */
export function enumeratePaths(
  pools: readonly PoolInfo[],
  tokenIn: Address,
  tokenOut: Address,
  takesTransferFee: (token: Address) => boolean,
): Path[] {
  const from = lower(tokenIn)
  const to = lower(tokenOut)
  const byToken = new Map<Address, PoolInfo[]>()
  for (const pool of pools) {
    for (const token of [pool.token0, pool.token1]) {
      byToken.set(token, [...(byToken.get(token) ?? []), pool])
    }
  }
  const paths: Path[] = []
  const walk = (token: Address, visited: Address[], hops: Path['hops']) => {
    for (const pool of byToken.get(token) ?? []) {
      const zeroForOne = pool.token0 === token
      const next = zeroForOne ? pool.token1 : pool.token0
      if (visited.includes(next)) continue
      const movesFeeToken = takesTransferFee(token) || takesTransferFee(next)
      if (movesFeeToken && pool.protocol !== 'v2') continue
      const path = [...hops, { pool, tokenIn: token, tokenOut: next, zeroForOne }]
      if (next === to) {
        paths.push({ hops: path, key: path.map((hop) => hop.pool.address).join('>') })
      } else if (path.length < MAX_HOPS && !takesTransferFee(next)) {
        walk(next, [...visited, next], path)
      }
    }
  }
  walk(from, [from], [])
  return paths
}
