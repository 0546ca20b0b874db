import { readFile, writeFile } from 'node:fs/promises'
import { GAS_PARTS } from '../../lib/config'
import type { NetworkName } from '../../lib/networkNames'
import type { GasUnitsEntry } from '../../lib/networks'
import { grossOf } from '../../lib/routing/gas/gasModel'
import type { ExecutedShape } from './executeShapes'

// The units from receipts: least squares of each swap's gas before refunds (its receipt's
// `gasUsed` plus what its cleared slots refunded: gasModel.ts grossOf) on its shape (how many of
// each part of the model it has: lib/routing/gas/gasModel.ts transactionShape), with a faint pull towards the
// table's current units so a part no executed shape used keeps its value instead of a singular
// system; a part fitted below 0 is held at 0 and the rest fitted again.

/** Where the fit writes the units: the network table, and the reference's own copy. */
export const NETWORK_TABLE_FILE = 'lib/networks.ts'
export const REFERENCE_UNITS_FILE = 'tests/reference/fittedGasUnits.json'

/** How hard the table's current units pull a part the receipts say little about. */
const PRIOR_WEIGHT = 1e-3

/** Solves A x = b by Gaussian elimination with partial pivoting (A square, well conditioned). */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length
  const rows = matrix.map((row, index) => [...row, vector[index] ?? 0])
  for (let column = 0; column < n; column += 1) {
    let pivot = column
    for (let row = column + 1; row < n; row += 1) {
      if (Math.abs(rows[row]?.[column] ?? 0) > Math.abs(rows[pivot]?.[column] ?? 0)) pivot = row
    }
    ;[rows[column], rows[pivot]] = [rows[pivot] as number[], rows[column] as number[]]
    const head = rows[column] as number[]
    for (let row = 0; row < n; row += 1) {
      const current = rows[row] as number[]
      if (row === column || head[column] === 0) continue
      const factor = (current[column] ?? 0) / (head[column] ?? 1)
      for (let k = column; k <= n; k += 1) current[k] = (current[k] ?? 0) - factor * (head[k] ?? 0)
    }
  }
  return rows.map((row, index) => (row[n] ?? 0) / (row[index] ?? 1))
}

/** The units that fit `executed` best, starting from (and pulled faintly towards) `prior`. */
export function fitUnits(executed: readonly ExecutedShape[], prior: GasUnitsEntry): GasUnitsEntry {
  const held = new Set<string>()
  for (;;) {
    const parts = GAS_PARTS.filter((part) => !held.has(part))
    const weight = PRIOR_WEIGHT * executed.length
    const normal = parts.map((_, i) => parts.map((__, j) => (i === j ? weight : 0)))
    const right = parts.map((part) => weight * prior[part])
    for (const { shape, gasUsed } of executed) {
      const row = parts.map((part) => shape[part])
      const gross = Number(grossOf(gasUsed, shape.refunds))
      row.forEach((value, i) => {
        right[i] = (right[i] ?? 0) + value * gross
        row.forEach((other, j) => {
          const line = normal[i] as number[]
          line[j] = (line[j] ?? 0) + value * other
        })
      })
    }
    const solved = solve(normal, right)
    const negative = parts.find((_, index) => (solved[index] ?? 0) < 0)
    if (negative) {
      held.add(negative)
      continue
    }
    const fitted = Object.fromEntries(
      GAS_PARTS.map((part) => [part, 0]),
    ) as unknown as GasUnitsEntry
    parts.forEach((part, index) => {
      fitted[part] = Math.round(solved[index] ?? 0)
    })
    return fitted
  }
}

/** Writes each fitted network's units into the table's `gas` block, keeping everything else. */
export async function writeTableUnits(
  fitted: Partial<Record<NetworkName, GasUnitsEntry>>,
  note: string,
): Promise<void> {
  let source = await readFile(NETWORK_TABLE_FILE, 'utf8')
  for (const [network, units] of Object.entries(fitted)) {
    const entry = source.indexOf(`\n  ${network}: {`)
    const start = source.indexOf('\n    gas: {', entry)
    const comment = source.lastIndexOf('\n    // Gas units', start)
    const from = comment > entry && comment < start ? comment : start
    const end = source.indexOf('\n    },', start) + '\n    },'.length
    if (entry < 0 || start < 0 || end < start) throw new Error(`no gas block for ${network}`)
    const lines = GAS_PARTS.map((part) => `      ${part}: ${groupDigits(units[part])},`)
    const block = [`\n    // Gas units ${note}`, '    gas: {', ...lines, '    },'].join('\n')
    source = source.slice(0, from) + block + source.slice(end)
  }
  await writeFile(NETWORK_TABLE_FILE, source)
}

/** The reference's copy (tests/reference/gasModel.ts reads it, never the service's config). */
export async function writeReferenceUnits(
  fitted: Partial<Record<NetworkName, GasUnitsEntry>>,
): Promise<void> {
  const kept = await readFile(REFERENCE_UNITS_FILE, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, GasUnitsEntry>,
    () => ({}),
  )
  await writeFile(REFERENCE_UNITS_FILE, `${JSON.stringify({ ...kept, ...fitted }, null, 2)}\n`)
}

function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '_')
}
