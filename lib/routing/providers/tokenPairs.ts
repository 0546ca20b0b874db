import type { Address } from 'viem'
import { sameToken } from '../pools/pool'

const pairKey = (a: Address, b: Address) => [a.toLowerCase(), b.toLowerCase()].sort().join(':')

/**
 * The token pairs whose pools a search reads: every pair among the two ends and the tokens a
 * route may pass through (each pair once, whatever the order or casing given).
 */
export function pairsToRead(
  tokenIn: Address,
  tokenOut: Address,
  through: readonly Address[],
): [Address, Address][] {
  const tokens: Address[] = []
  for (const token of [tokenIn, tokenOut, ...through]) {
    if (!tokens.some((known) => sameToken(known, token))) tokens.push(token)
  }
  const pairs: [Address, Address][] = []
  const seen = new Set<string>()
  tokens.forEach((a, i) =>
    tokens.slice(i + 1).forEach((b) => {
      const key = pairKey(a, b)
      if (!seen.has(key)) {
        seen.add(key)
        pairs.push([a, b])
      }
    }),
  )
  return pairs
}
