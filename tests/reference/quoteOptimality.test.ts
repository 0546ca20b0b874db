import '../support/env'
import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { NetworkName } from '../../lib/networkNames'
import { TESTED_NETWORKS } from '../support/networkCases'
import { copyDevnet, type OwnDevnet } from './ownDevnet'
import { processCpuSeconds, writeReport } from './referenceReport'
import { unexpectedMisses } from './knownShortfalls'
import { APART_MAX, APART_MIN } from './moveV2Apart'
import { describeMiss, newTally } from './referenceTally'
import { type NetworkRun, runNetwork, SIZE_COUNT, type StatePlan } from './runNetwork'

// Issue 33's "done when" (DECISIONS §9.3): every quote held against a brute force nobody here
// wrote (the Uniswap SDKs' math, pools found from the factories' logs and read whole from the
// chain), on every ordered pair of catalog tokens and the native coin, at SIZE_COUNT log-spaced
// sizes from 1e-6 to 50 % of the input token's deepest pool, on every tested network (TEST_NETWORKS), on a copy of the
// suite's devnet and on the states PLANS makes on that copy with real transactions, one after
// the other. The service's quote core runs in-process against the copies; each answer is judged
// on its route as the SDKs re-price it (issue 42), which must be its amountOut on every state.
// On the copy and the fixed states every case must meet the bar but the known shortfalls of
// knownShortfalls.ts; the run's own state's misses are printed as findings (they gate nothing
// until the search meets them). A miss is a finding about lib/routing (the JSON report names each,
// with what replays it).

/** The fixed states' seeds (3301-3302 on the first network, 3401-3402 on the second, ...). */
const FIXED_SEED = 3300
/** The last state's seed, new each run (printed): REFERENCE_SEED replays a run. */
const RUN_SEED = Number(process.env.REFERENCE_SEED ?? randomInt(1_000_000))

/**
 * The states after the copy: seeded trades and then V2 pairs moved 5-40 % from their V3 pools,
 * both the same every run (the cases KNOWN_SHORTFALLS can name), then both again from the run's
 * own seed, so that no fixed set of cases is what the search was tuned to.
 */
function plansOf(network: NetworkName): StatePlan[] {
  const index = TESTED_NETWORKS.indexOf(network)
  const fixed = FIXED_SEED + 100 * index
  return [
    { seed: fixed + 1, origin: 'fixed', v2Apart: false, trades: true },
    { seed: fixed + 2, origin: 'fixed', v2Apart: true, trades: false },
    { seed: RUN_SEED * 10 + index, origin: 'run', v2Apart: true, trades: true },
  ]
}
const PLANNED_STATES = 3
/** The state made from the run's own seed: state 0 is the copy, then plansOf's, in order. */
const RUN_STATE = PLANNED_STATES
/** Float reading of two prices off the chain: the measured distance may miss the drawn one by this. */
const APART_READING = 1e-6

describe('quotes against an independent brute force (issue 33, DECISIONS §9.3)', () => {
  const devnets = new Map<NetworkName, OwnDevnet>()
  const runs = new Map<NetworkName, NetworkRun>()

  beforeAll(async () => {
    console.log(`quote optimality: run seed ${RUN_SEED} (REFERENCE_SEED=${RUN_SEED} replays it)`)
    const startedAt = performance.now()
    const cpuAtStart = process.cpuUsage()
    // Thousands of quotes each charge the client's budget in the shared DynamoDB Local: on a
    // loaded CI run two outlasted the deployed 1 s timeout and answered 503. The database's
    // latency is not what this file judges.
    process.env.DYNAMODB_REQUEST_TIMEOUT_MS = '10000'
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
          plans: plansOf(network),
          tally: newTally(),
        }),
      )
    }
    const cpu = process.cpuUsage(cpuAtStart)
    const report = await writeReport(runs, {
      fixedSeed: FIXED_SEED,
      runSeed: RUN_SEED,
      seeds: Object.fromEntries(
        TESTED_NETWORKS.map((network) => [network, plansOf(network).map((plan) => plan.seed)]),
      ),
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
      const expected = run.pools.v3 * 4 * (PLANNED_STATES + 1) + PLANNED_STATES
      expect(run.checks.checks, network).toBeGreaterThanOrEqual(expected)
    }
  })

  it('answers every case: the brute force never fails, and finds pools the way the chain shows them', () => {
    expect([...runs.keys()]).toEqual([...TESTED_NETWORKS])
    for (const [network, run] of runs) {
      expect(run.referenceFailures, network).toEqual([])
      const tokens = run.catalogSize
      expect(run.tally.cases, network).toBe(
        tokens * (tokens - 1) * SIZE_COUNT * (PLANNED_STATES + 1),
      )
      expect(run.pools.v2, network).toBeGreaterThan(0)
      expect(run.pools.v3, network).toBeGreaterThan(0)
    }
  })

  it(`moves V2 pairs ${100 * APART_MIN}-${100 * APART_MAX} % from their V3 pools where planned, as measured on chain`, () => {
    for (const [network, run] of runs) {
      const planned = plansOf(network)
      for (const { state, moved } of run.states) {
        if (!planned[state - 1]?.v2Apart) continue
        expect(moved.length, `${network} state ${state}`).toBeGreaterThan(0)
        for (const pair of moved) {
          const distance = Math.abs(pair.measured)
          expect(Math.sign(pair.measured), `${network} ${pair.pair}`).toBe(Math.sign(pair.target))
          expect(distance, `${network} ${pair.pair}`).toBeGreaterThanOrEqual(
            APART_MIN - APART_READING,
          )
          expect(distance, `${network} ${pair.pair}`).toBeLessThanOrEqual(APART_MAX + APART_READING)
        }
      }
    }
  })

  for (const network of TESTED_NETWORKS) {
    it(`on ${network}, on every state (the run's own too), every answer's route, re-priced by the SDKs, pays exactly its amountOut from exactly the query's input; never answers 5xx, and has legs summing to amountOut`, () => {
      const run = runs.get(network)
      expect(run, network).toBeDefined()
      expect(run?.tally.status5xx, network).toBe(0)
      expect(run?.tally.legsMismatch, network).toBe(0)
      expect(run?.tally.repricedDiffers, network).toBe(0)
      expect(run?.tally.inputMismatch, network).toBe(0)
    })

    it(`on ${network}, on the copy and the fixed states, every answer nets at least the brute force's best less 1 bps (at 50 % of the deepest pool also raw, against the best split), but for exactly the known shortfalls of KNOWN_SHORTFALLS, each no further short`, () => {
      // Every miss at once, each described (the runs' completeness is the test's above).
      const run = runs.get(network)
      expect(run, network).toBeDefined()
      const [fixed, own] = partition(run?.failing ?? [], (record) => record.state < RUN_STATE)
      expect(unexpectedMisses(network, fixed, describeMiss)).toEqual([])
      // The run's own state gates nothing on the bar: its misses are findings about lib/routing
      // that issue 42 leaves open (large splits once a pair's V2 and V3 prices disagree, on about
      // half of the seeds), printed with the seed that replays them and kept in the JSON report.
      if (own.length > 0) {
        console.log(
          `${network}: ${own.length} findings in the run's own state (REFERENCE_SEED=${RUN_SEED}):\n` +
            own.map(describeMiss).join('\n'),
        )
      }
    })
  }
})

function partition<Item>(items: readonly Item[], test: (item: Item) => boolean): [Item[], Item[]] {
  return [items.filter(test), items.filter((item) => !test(item))]
}
