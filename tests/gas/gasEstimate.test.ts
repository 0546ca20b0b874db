import '../support/env'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { TESTED_NETWORKS } from '../support/networkCases'
import type { OwnDevnet } from '../reference/ownDevnet'
import { errorDistribution, type ExecutedShape, relativeError } from './executeShapes'
import { copyDevnets, residualLines, runShapes } from './runShapes'

// DECISIONS §10.2's gas the chain charges: generated swaps (every catalog token and the native
// coin both ways, $1 to $3M, whatever route the search picks: V2, V3, splits, 1 to 3 hops,
// fee-on-transfer) quoted by the service and executed on a copy of each tested network's fresh
// devnet; each quote's `gasEstimate` (bestRoute's `gas`) held against its receipt's `gasUsed`.
// A new seed each run (printed; GAS_TEST_SEED replays it), GAS_TEST_SHAPES swaps a network
// (default 100, about 15 s a network; `npm run gas:fit` runs 150 and prints every residual).

const COUNT = Number(process.env.GAS_TEST_SHAPES ?? 100)
const SEED = Number(process.env.GAS_TEST_SEED ?? Date.now() % 1_000_000)

/** The fitted model's bars (docs/trading.md, "Gas"): what it holds on every run. */
const WITHIN = 0.05
const SHARE_WITHIN = 0.85
const MEDIAN_AT_MOST = 0.025
const EVERY_WITHIN = 0.25

describe('gasEstimate against the receipt (DECISIONS §10.2)', () => {
  const executed: ExecutedShape[] = []
  const devnets: OwnDevnet[] = []

  beforeAll(async () => {
    console.log(`gas estimates: seed ${SEED} (GAS_TEST_SEED replays it), ${COUNT} swaps a network`)
    const deployments = TESTED_NETWORKS.map((network) => inject('deployments')[network])
    const copies = await copyDevnets(deployments)
    devnets.push(...copies.values())
    for (const [deployment, devnet] of copies) {
      const swaps = await runShapes(devnet, deployment, COUNT, SEED)
      console.log(
        `${deployment.network}: ${JSON.stringify(errorDistribution(swaps))}\n${residualLines(
          swaps.filter((swap) => relativeError(swap) > WITHIN),
        ).join('\n')}`,
      )
      executed.push(...swaps)
    }
  }, 900_000)

  afterAll(async () => {
    await Promise.all(devnets.map((devnet) => devnet.stop()))
  })

  it('executes nearly every generated swap (the pools fill them) on every tested network', () => {
    for (const network of TESTED_NETWORKS) {
      const swaps = executed.filter((swap) => swap.network === network)
      expect(swaps.length, network).toBeGreaterThanOrEqual(Math.floor(COUNT * 0.9))
    }
  })

  it(`is within ${100 * WITHIN} % of gasUsed on at least ${100 * SHARE_WITHIN} % of swaps, median at most ${100 * MEDIAN_AT_MOST} %`, () => {
    const { count, median, over } = errorDistribution(executed, WITHIN)
    expect(count).toBeGreaterThan(0)
    expect(over / count).toBeLessThanOrEqual(1 - SHARE_WITHIN)
    expect(median).toBeLessThanOrEqual(MEDIAN_AT_MOST)
  })

  it(`is within ${100 * EVERY_WITHIN} % of gasUsed on every swap`, () => {
    const far = executed.filter((swap) => relativeError(swap) > EVERY_WITHIN)
    expect(residualLines(far)).toEqual([])
  })
})
