import { afterAll, beforeAll, inject } from 'vitest'
import type { NetworkName } from '../../lib/networkNames'
import { copyDevnet, type OwnDevnet } from '../reference/ownDevnet'
import { pointDevnetAt } from './devnetAccounts'

/**
 * For a file whose trades move the shared devnets' prices far (an exact output of 900,000 USDC,
 * a 2,000,000 USDC split): the file trades on copies of the fresh devnets of its own, started
 * before its tests and stopped after them, and the service and the devnet helpers of
 * tests/support/devnetAccounts.ts are pointed at them. Other files price the shared pools (the
 * sampler refuses a token whose pools disagree; a market test expects the demo prices), and a
 * run's order of files is not fixed. Call at the top of the file, before any handler reads its
 * configuration.
 */
export function tradeOnOwnCopies(networks: readonly NetworkName[]): void {
  const copies: OwnDevnet[] = []
  beforeAll(async () => {
    const deployments = inject('deployments')
    for (const network of networks) {
      const copy = await copyDevnet({ network, chainId: deployments[network].chainId })
      copies.push(copy)
      pointDevnetAt(network, copy.rpcUrl)
    }
  }, 180_000)
  afterAll(async () => {
    await Promise.all(copies.map((copy) => copy.stop()))
  })
}
