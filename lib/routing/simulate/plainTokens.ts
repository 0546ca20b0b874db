import type { Address } from 'viem'
import type { NetworkName } from '../../networkNames'

/**
 * Tokens this container has seen take no transfer fee: a simulation through them paid exactly
 * the pools' figure. Others may be fee-on-transfer, so a plan that keeps them on V2 hops is
 * simulated beside (DECISIONS §9.3). Bounded, started over when full.
 */
const plainTokens = new Set<string>()
const PLAIN_TOKENS_KEPT = 1000
/**
 * Base units the amount in and what arrived must both reach for an exact simulation to prove the
 * ends plain: a fee of 1 bps then takes at least 10 units off a transfer, which the pools' figure
 * would show. Smaller, a fee can round away (3 % of 30 units is 0), and a token seen "plain" on a
 * dust quote would lose its fee-safe plans, and a split into it its legs paying the recipient,
 * on every later quote.
 */
const PLAIN_EVIDENCE_UNITS = 10n ** 5n

const keyOf = (network: NetworkName, token: Address) => `${network}:${token.toLowerCase()}`

/** Whether this container has seen `token` take no transfer fee on `network`. */
export function seenPlain(network: NetworkName, token: Address): boolean {
  return plainTokens.has(keyOf(network, token))
}

export interface PlainEvidence {
  network: NetworkName
  /** The end tokens not seen plain yet. */
  unsure: readonly Address[]
  amountIn: bigint
  /** The pools' exact figure of the split simulated, if it is exact. */
  searched: { amountOut: bigint; exact: boolean }
  /** What the simulation of that split delivered (undefined where it reverted). */
  received: bigint | undefined
}

/**
 * Where the pools paid what their math said, through both ends (an exact split, amounts large
 * enough that a fee would show), neither end takes a transfer fee: both are remembered plain.
 */
export function learnPlain({ network, unsure, amountIn, searched, received }: PlainEvidence): void {
  if (
    received === undefined ||
    received !== searched.amountOut ||
    !searched.exact ||
    amountIn < PLAIN_EVIDENCE_UNITS ||
    received < PLAIN_EVIDENCE_UNITS
  ) {
    return
  }
  if (plainTokens.size >= PLAIN_TOKENS_KEPT) plainTokens.clear()
  for (const token of unsure) plainTokens.add(keyOf(network, token))
}
