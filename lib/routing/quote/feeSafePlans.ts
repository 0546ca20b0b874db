import type { Address } from 'viem'
import type { NetworkName } from '../../networkNames'
import type { Hop } from '../paths/enumeratePaths'
import { sameToken } from '../pools/pool'
import { seenPlain } from '../simulate/plainTokens'
import type { RoutePlan, RoutePlanner } from './routePlanner'

/** A plan to simulate: a split, and whether its legs pay the recipient themselves. */
export interface QuotePlan extends RoutePlan {
  legsPayRecipient: boolean
}

/** The end tokens that may take a fee on transfer: neither the wrapped coin nor seen plain. */
export function unsureTokens(
  network: NetworkName,
  wrappedNative: Address,
  ends: readonly Address[],
): Address[] {
  return ends.filter((token) => !sameToken(token, wrappedNative) && !seenPlain(network, token))
}

export interface FeeSafePlansParameters {
  planner: RoutePlanner
  best: RoutePlan
  unsure: readonly Address[]
  tokenOut: Address
  nativeOut: boolean
}

/**
 * The plans simulated beside the best, never silently worse: where an end token may take a fee
 * on transfer, the best split keeping the hops that move it on V2 (SwapRouter02's V2 hop pays
 * what arrived), and that as a single route; where it is the output, each split whose legs end
 * on V2 with its legs paying the recipient (one transfer of the output, not two through the
 * router's sweep), after the others, so a tie (a plain token) keeps the router's sweep. The best
 * first.
 */
export function feeSafePlans(parameters: FeeSafePlansParameters): QuotePlan[] {
  const { planner, best, unsure, tokenOut, nativeOut } = parameters
  const feeSafe = (hop: Hop) =>
    hop.pool.protocol === 'v2' ||
    !unsure.some((token) => sameToken(token, hop.tokenIn) || sameToken(token, hop.tokenOut))
  const plans: QuotePlan[] = [{ ...best, legsPayRecipient: false }]
  if (unsure.length > 0 && !best.split.routes.every((route) => route.hops.every(feeSafe))) {
    const safe = planner.plan(feeSafe)
    if (safe) plans.push({ ...safe, legsPayRecipient: false })
    if (safe && safe.split.routes.length > 1) {
      const single = planner.plan(feeSafe, 1)
      if (single) plans.push({ ...single, legsPayRecipient: false })
    }
  }
  if (!nativeOut && unsure.some((token) => sameToken(token, tokenOut))) {
    const direct = plans.filter(
      (candidate) =>
        candidate.split.routes.length > 1 &&
        candidate.split.routes.every((route) => route.hops.at(-1)?.pool.protocol === 'v2'),
    )
    plans.push(...direct.map((candidate) => ({ ...candidate, legsPayRecipient: true })))
  }
  return plans
}
