import '../support/env'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, expect, inject, it } from 'vitest'
import type { GasUnits } from '../../lib/config'
import { NETWORK_NAMES } from '../../lib/networkNames'
import { shapeGas } from '../../lib/routing/gas/gasModel'
import { NETWORK_ENTRIES, type GasUnitsEntry } from '../../lib/networks'
import type { OwnDevnet } from '../reference/ownDevnet'
import { errorDistribution, type ExecutedShape } from './executeShapes'
import { fitUnits, writeReferenceUnits, writeTableUnits } from './fitGasUnits'
import { copyDevnets, residualLines, runShapes } from './runShapes'

// `npm run gas:fit` (tests/gas/vitest.fit.mts): on a copy of each network's fresh devnet,
// GAS_FIT_SHAPES generated swaps (default 150) executed through the service's path, the units
// fitted to their receipts by least squares, written into the network table (lib/networks.ts)
// and the reference's copy (tests/reference/fittedGasUnits.json), then the same swaps' errors
// under the fitted units printed (the shapes are counted, so the estimate is recomputed exactly).
// GAS_FIT_SEED replays a run; GAS_FIT_NETWORKS narrows it (comma-separated).

const COUNT = Number(process.env.GAS_FIT_SHAPES ?? 150)
const SEED = Number(process.env.GAS_FIT_SEED ?? Date.now() % 1_000_000)
const NETWORKS = (process.env.GAS_FIT_NETWORKS ?? NETWORK_NAMES.join(','))
  .split(',')
  .filter((name): name is (typeof NETWORK_NAMES)[number] =>
    (NETWORK_NAMES as readonly string[]).includes(name),
  )

/** Each network's executed swaps (shape, estimate, receipt), to study the fit's residuals. */
const FIT_OUTPUT_DIR = join('.test-output', 'gas-fit')

const devnets: OwnDevnet[] = []
afterAll(async () => {
  await Promise.all(devnets.map((devnet) => devnet.stop()))
})

const gasOf = (swap: ExecutedShape, units: GasUnitsEntry) =>
  shapeGas(
    swap.shape,
    Object.fromEntries(
      Object.entries(units).map(([part, value]: [string, number]) => [part, BigInt(value)]),
    ) as unknown as GasUnits,
  )

/**
 * The estimate the model before issue 40 gave the same route: 60,000 a transaction, 20,000 a
 * route, 60,000 a V2 hop, 80,000 a V3 hop, 25,000 a tick crossed, the same on every network.
 */
function legacyEstimate({ shape }: ExecutedShape): bigint {
  return BigInt(
    60_000 +
      20_000 * shape.route +
      60_000 * shape.v2Hop +
      80_000 * shape.v3Hop +
      25_000 * shape.tickCrossed,
  )
}

it('fits each network’s gas units to the receipts of generated swaps', async () => {
  console.log(`gas fit: seed ${SEED} (GAS_FIT_SEED replays it), ${COUNT} swaps a network`)
  const deployments = NETWORKS.map((network) => inject('deployments')[network])
  const copies = await copyDevnets(deployments)
  devnets.push(...copies.values())
  const fitted: Partial<Record<(typeof NETWORKS)[number], GasUnitsEntry>> = {}
  for (const [deployment, devnet] of copies) {
    const { network } = deployment
    const executed = await runShapes(devnet, deployment, COUNT, SEED)
    await mkdir(FIT_OUTPUT_DIR, { recursive: true })
    await writeFile(
      join(FIT_OUTPUT_DIR, `${network}.json`),
      JSON.stringify(executed, (_, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      ),
    )
    const legacy = errorDistribution(
      executed.map((swap) => ({ ...swap, estimate: legacyEstimate(swap) })),
    )
    const before = errorDistribution(executed)
    const units = fitUnits(executed, NETWORK_ENTRIES[network].gas)
    const refitted = executed.map((swap) => ({ ...swap, estimate: gasOf(swap, units) }))
    const after = errorDistribution(refitted)
    console.log(
      [
        `${network}: ${executed.length} swaps; units ${JSON.stringify(units)}`,
        `  by the model before issue 40:  ${JSON.stringify(legacy)}`,
        `  with the table's units before: ${JSON.stringify(before)}`,
        `  with the fitted units:         ${JSON.stringify(after)}`,
        ...residualLines(refitted).map((line) => `  ${line}`),
      ].join('\n'),
    )
    expect(executed.length).toBeGreaterThanOrEqual(Math.min(COUNT, 100))
    fitted[network] = units
  }
  const note = `fitted by \`npm run gas:fit\` (seed ${SEED}, ${COUNT} swaps a network)`
  await writeTableUnits(fitted, note)
  await writeReferenceUnits(fitted)
})
