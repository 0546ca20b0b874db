import type { Address } from 'viem'
import { loadChainConfig } from '../config'
import { NoRouterConfigured } from '../errors'
import type { NetworkName } from '../networkNames'

// The router a swap's tokens are approved for, and the approvals a short allowance needs: shared
// by the swap plan and the approval route (lib/clientSigning/prepareApproval.ts), which must not
// carry the routing engine in its bundle.

/**
 * The approvals a short allowance needs, in order (DECISIONS §7.2): none when it suffices; the
 * amount when it is zero; otherwise 0 first, then the amount, since tokens like USDT refuse to
 * change a non-zero allowance to another non-zero value.
 */
export function approvalAmounts(allowance: bigint, amount: bigint): bigint[] {
  if (allowance >= amount) return []
  return allowance === 0n ? [amount] : [0n, amount]
}

/** The network's SwapRouter02 (DECISIONS §8.1): every swap and its approvals go to it. */
export function swapRouterOf(network: NetworkName): Address {
  const { swapRouter } = loadChainConfig(network)
  if (!swapRouter) throw new NoRouterConfigured(network)
  return swapRouter
}
