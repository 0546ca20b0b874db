import '../support/env'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { NetworkName } from '../../lib/networkNames'
import { TESTED_NETWORKS } from '../support/networkCases'
import { copyDevnet, type OwnDevnet } from './ownDevnet'
import { processCpuSeconds, writeReport } from './referenceReport'
import { unexpectedMisses } from './knownShortfalls'
import { describeMiss, newTally } from './referenceTally'
import { type NetworkRun, runNetwork, SIZE_COUNT } from './runNetwork'

// Issue 33's "done when" (DECISIONS §9.3): every quote held against a brute force nobody here
// wrote (the Uniswap SDKs' math, pools found from the factories' logs and read whole from the
// chain), on every ordered pair of catalog tokens and the native coin, at SIZE_COUNT log-spaced
// sizes from 1e-6 to 50 % of the input token's deepest pool, on every tested network (TEST_NETWORKS), on a copy of the
// suite's devnet and on RANDOM_STATES seeded states after real trades on that copy. The service's
// quote core runs in-process against the copies. Every case must meet the bar but the known
// shortfalls of knownShortfalls.ts (issue 33 open on them): a miss is a finding about lib/routing
// (the JSON report names each, with what replays it).

const RANDOM_STATES = 3
/** The random states' seeds: REFERENCE_SEED (a failing run's, to replay it) or 3300. */
const BASE_SEED = Number(process.env.REFERENCE_SEED ?? 3300)
const seedsOf = (network: NetworkName) =>
  Array.from(
    { length: RANDOM_STATES },
    (_, state) => BASE_SEED + 100 * TESTED_NETWORKS.indexOf(network) + state + 1,
  )

describe('quotes against an independent brute force (issue 33, DECISIONS §9.3)', () => {
  const devnets = new Map<NetworkName, OwnDevnet>()
  const runs = new Map<NetworkName, NetworkRun>()

  beforeAll(async () => {
    const startedAt = performance.now()
    const cpuAtStart = process.cpuUsage()
    const deployments = inject('deployments')
    for (const network of TESTED_NETWORKS) {
      const { chainId } = deployments[network]
      const devnet = await copyDevnet({ network, chainId })
      devnets.set(network, devnet)
      // Read once, at the quote core's first call (imported later, by runNetwork's quotes).
      process.env[`${network.toUpperCase()}_RPC_URL`] = devnet.rpcUrl
    }
    for (const network of TESTED_NETWORKS) {
      runs.set(
        network,
        await runNetwork({
          devnet: devnets.get(network) as OwnDevnet,
          deployment: deployments[network],
          seeds: seedsOf(network),
          tally: newTally(),
        }),
      )
    }
    const cpu = process.cpuUsage(cpuAtStart)
    const report = await writeReport(runs, {
      baseSeed: BASE_SEED,
      seeds: Object.fromEntries(TESTED_NETWORKS.map((network) => [network, seedsOf(network)])),
      cpuSeconds: {
        test: (cpu.user + cpu.system) / 1e6,
        ...Object.fromEntries(
          [...devnets].map(([network, devnet]) => [
            `${network} devnet copy`,
            processCpuSeconds(devnet.pid) ?? Number.NaN,
          ]),
        ),
      },
      wallSeconds: (performance.now() - startedAt) / 1000,
    })
    console.log(report)
    // Minutes on a busy machine: a bound for a hung node, not a figure the test checks.
  }, 45 * 60_000)

  afterAll(async () => {
    await Promise.all([...devnets.values()].map((devnet) => devnet.stop()))
  })

  it('prices with SDK math the chain confirms: QuoterV2 at the same block, and every seeded trade pays exactly what the SDKs say', () => {
    for (const [network, run] of runs) {
      expect(run.checks.mismatches, network).toEqual([])
      // The pairs charge what the service's configuration prices them at (<NET>_V2_FEE_BPS).
      expect(run.v2FeeBps, network).toEqual([run.configuredV2FeeBps])
      // Each V3 pool both ways at two sizes in every state, and three checks per trade at least.
      const expected = run.pools.v3 * 4 * (RANDOM_STATES + 1) + RANDOM_STATES
      expect(run.checks.checks, network).toBeGreaterThanOrEqual(expected)
    }
  })

  it('answers every case: the brute force never fails, and finds pools the way the chain shows them', () => {
    expect([...runs.keys()]).toEqual([...TESTED_NETWORKS])
    for (const [network, run] of runs) {
      expect(run.referenceFailures, network).toEqual([])
      const tokens = run.catalogSize
      expect(run.tally.cases, network).toBe(
        tokens * (tokens - 1) * SIZE_COUNT * (RANDOM_STATES + 1),
      )
      expect(run.pools.v2, network).toBeGreaterThan(0)
      expect(run.pools.v3, network).toBeGreaterThan(0)
    }
  })

  for (const network of TESTED_NETWORKS) {
    it(`on ${network}, every quote nets at least the brute force's best less 1 bps (at 50 % of the deepest pool also raw, against the best split), but for exactly the known shortfalls of KNOWN_SHORTFALLS, each no further short; never answers 5xx, and has legs summing to amountOut`, () => {
      // Every miss at once, each described (the runs' completeness is the test's above).
      const run = runs.get(network)
      expect(run, network).toBeDefined()
      expect(unexpectedMisses(network, run?.failing ?? [], describeMiss)).toEqual([])
      expect(run?.tally.status5xx, network).toBe(0)
      expect(run?.tally.legsMismatch, network).toBe(0)
    })
  }
})
