import '../../support/env'
import { type Address, encodePacked, erc20Abi, getAddress } from 'viem'
import { readContract, simulateContract } from 'viem/actions'
import { describe, expect, inject, it } from 'vitest'
import { publicClient } from '../../../lib/chain/clients'
import { loadChainConfig } from '../../../lib/config'
import { quoterV2Abi } from '../../../lib/local/v3Artifacts'
import { samplePrices } from '../../../lib/markets/samplePrices'
import { ONE_USD } from '../../../lib/markets/usdAmount'
import { createProject } from '../../support/marketFixtures'
import { TESTED_NETWORKS } from '../../support/networkCases'

// The price sampler on a network with V3 pools (issue 26): tokens pooled only in V3 (ENS, AAVE on
// ethereum; XVS, TWT on altchain) get a USD price, at least the best that QuoterV2 on chain pays
// for one whole token on any V3 path of one or two hops (every fee tier, every catalog token and
// the wrapped native coin as the middle): the chain's own quoter, not the service's pool math.
// Not equal: once the suite's other files have traded, a mixed V2/V3 or 3-hop route can pay more
// than every path this reference enumerates (a run saw $90.00 against $42.30 for ENS), and the
// engine finds it; its exactness against a brute force over every pool is bestRoute.test.ts's.

const NETWORKS = TESTED_NETWORKS

/** The best QuoterV2 output for `amountIn` over every V3 path of 1-2 hops among `middles`. */
async function quoterBest(
  network: (typeof NETWORKS)[number],
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
  middles: readonly Address[],
): Promise<bigint> {
  const { feeTiers } = loadChainConfig(network).v3 ?? { feeTiers: [] }
  const quoter = inject('deployments')[network].v3.quoter
  const paths: `0x${string}`[] = feeTiers.map((fee) =>
    encodePacked(['address', 'uint24', 'address'], [tokenIn, fee, tokenOut]),
  )
  for (const middle of middles) {
    if (middle === tokenIn || middle === tokenOut) continue
    for (const first of feeTiers) {
      for (const second of feeTiers) {
        paths.push(
          encodePacked(
            ['address', 'uint24', 'address', 'uint24', 'address'],
            [tokenIn, first, middle, second, tokenOut],
          ),
        )
      }
    }
  }
  const outputs = await Promise.all(
    paths.map((path) =>
      simulateContract(publicClient(network), {
        address: quoter,
        abi: quoterV2Abi,
        functionName: 'quoteExactInput',
        args: [path, amountIn],
      }).then(
        ({ result }) => result[0],
        () => 0n, // a path through a missing pool reverts
      ),
    ),
  )
  return outputs.reduce((best, out) => (out > best ? out : best), 0n)
}

describe.each(NETWORKS)('the price sampler on %s', (network) => {
  it('prices the V3-only tokens at no less than the best QuoterV2 sell price of one whole token', async () => {
    const deployed = inject('deployments')[network]
    const listed = [...deployed.tokens, ...deployed.v3OnlyTokens]
    const projects = await Promise.all(
      listed.map((token) =>
        createProject({
          network,
          address: getAddress(token.address),
          symbol: token.symbol,
          decimals: token.decimals,
        }),
      ),
    )

    const usd = getAddress(deployed.usdStablecoin)
    const stableScale =
      10n **
      BigInt(
        await readContract(publicClient(network), {
          address: usd,
          abi: erc20Abi,
          functionName: 'decimals',
        }),
      )
    const middles = [
      getAddress(deployed.wrappedNative),
      ...listed.map((t) => getAddress(t.address)),
    ]
    expect(deployed.v3OnlyTokens.length).toBe(2)
    const referencePrices = () =>
      Promise.all(
        deployed.v3OnlyTokens.map(async (token) => {
          const oneToken = 10n ** BigInt(token.decimals)
          const best = await quoterBest(network, getAddress(token.address), usd, oneToken, middles)
          expect(best).toBeGreaterThan(0n)
          return (best * ONE_USD) / stableScale
        }),
      )

    // The suite's other files trade on the same pools: the sample is compared with the reference
    // only when the reference read before and after it agree (no pool of these paths moved).
    for (let attempt = 1; ; attempt++) {
      const before = await referencePrices()
      const run = await samplePrices({ projects })
      const after = await referencePrices()
      expect(run.failed).toEqual([])
      if (before.some((price, index) => price !== after[index])) {
        if (attempt === 10) throw new Error('the pools moved during each of 10 samples')
        continue
      }
      deployed.v3OnlyTokens.forEach((token, index) => {
        const project = projects.find((p) => p.address === getAddress(token.address))
        const sampled = run.sampled.find((s) => s.projectId === project?.id)?.priceE18
        expect({ token: token.symbol, atLeastQuoterV2: (sampled ?? 0n) >= after[index]! }).toEqual({
          token: token.symbol,
          atLeastQuoterV2: true,
        })
      })
      break
    }
  })
})
