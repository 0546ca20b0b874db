import type { Address } from 'viem'
import type { Pool } from '../pools/pool'

// Which token pairs' pools are read, decided here once (issue 42): a quote reads every pair among
// its tokens (pairsToRead), a pricing path the pairs along its candidate routes (pairsAlong), the
// market sync a token's pairs with every known token (pairsWith).
// A pair is the same whatever its order or casing (pairKey); the lens finds a pair's pools either
// way round, so the first order given is kept.

/** A pair's key: its two addresses lower-cased, sorted. */
export const pairKey = (a: Address, b: Address) =>
  [a.toLowerCase(), b.toLowerCase()].sort().join('/')

/** Each pair once, in the order first given. */
function distinctPairs(pairs: Iterable<readonly [Address, Address]>): [Address, Address][] {
  const byKey = new Map<string, [Address, Address]>()
  for (const [a, b] of pairs) {
    const key = pairKey(a, b)
    if (!byKey.has(key)) byKey.set(key, [a, b])
  }
  return [...byKey.values()]
}

/**
 * The token pairs whose pools a search reads: every pair among the two ends and the tokens a
 * route may pass through (each pair once, whatever the order or casing given).
 */
export function pairsToRead(
  tokenIn: Address,
  tokenOut: Address,
  through: readonly Address[],
): [Address, Address][] {
  const tokens = distinctTokens([tokenIn, tokenOut, ...through])
  return distinctPairs(tokens.flatMap((a, i) => tokens.slice(i + 1).map((b) => [a, b] as const)))
}

/**
 * The pairs between each of `tokens` and every other token of `tokens` or `others` (each pair
 * once): the markets a token may have among the tokens known (the market sync's).
 */
export function pairsWith(
  tokens: readonly Address[],
  others: readonly Address[],
): [Address, Address][] {
  const wanted = new Set(tokens.map((token) => token.toLowerCase()))
  const all = distinctTokens([...tokens, ...others])
  return distinctPairs(
    all.flatMap((a, i) =>
      all
        .slice(i + 1)
        .filter((b) => wanted.has(a.toLowerCase()) || wanted.has(b.toLowerCase()))
        .map((b) => [a, b] as const),
    ),
  )
}

/** The pairs of consecutive tokens along each route (each pair once). */
export function pairsAlong(routes: readonly (readonly Address[])[]): [Address, Address][] {
  return distinctPairs(
    routes.flatMap((route) =>
      route.slice(1).map((token, index) => [route[index] as Address, token] as const),
    ),
  )
}

/** Pools grouped by their pair (pairKey), in the order read. */
export function poolsByPair(pools: readonly Pool[]): Map<string, Pool[]> {
  const byPair = new Map<string, Pool[]>()
  for (const pool of pools) {
    const key = pairKey(pool.token0, pool.token1)
    byPair.set(key, [...(byPair.get(key) ?? []), pool])
  }
  return byPair
}

function distinctTokens(tokens: readonly Address[]): Address[] {
  const seen = new Set<string>()
  return tokens.filter((token) => {
    const key = token.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
