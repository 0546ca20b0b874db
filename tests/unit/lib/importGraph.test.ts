import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// Layers point one way: functions → schemas → lib/<domain> → lib/chain | lib/wallet → lib/db.
// A file may import its own layer or one below; the neutral modules any layer may use sit below
// them all. Tooling (local stack, OpenAPI writer, catalog import) runs beside the functions.

const ROOT = resolve(import.meta.dirname, '../../..')
const SOURCES = ['functions', 'schemas', 'lib']

const NEUTRAL = new Set([
  'lib/errors.ts',
  'lib/config.ts',
  'lib/logger.ts',
  // Business metrics as EMF lines: stdout only, like the logger.
  'lib/metrics.ts',
  'lib/constants.ts',
  // Pure helpers with no home of their own: the interface's timestamp, bounded concurrency.
  'lib/formatTimestamp.ts',
  'lib/mapConcurrently.ts',
  // The request's pending session check, which every write and broadcast awaits.
  'lib/admission.ts',
  // The zod entry: lib/config parses the environment with it.
  'schemas/zod.ts',
])

const KNOWN_UPWARD: string[] = []

const KNOWN_CYCLES: string[][] = []

const TOOLING = ['lib/local/', 'lib/openapi/', 'lib/catalog/']

/** The layer rank: higher may import lower, never the other way. */
function rank(file: string): number {
  if (NEUTRAL.has(file)) return 0
  if (file.startsWith('functions/') || TOOLING.some((dir) => file.startsWith(dir))) return 5
  if (file.startsWith('schemas/')) return 4
  if (file.startsWith('lib/chain/') || file.startsWith('lib/wallet/')) return 2
  // lib/aws: signed calls to AWS services (SSM), beside the table client.
  if (file.startsWith('lib/db/') || file.startsWith('lib/aws/')) return 1
  return 3
}

/** Whether `file` may import `target`: same layer or below; schemas only schemas and the neutral. */
function allowed(file: string, target: string): boolean {
  if (file.startsWith('schemas/')) return target.startsWith('schemas/') || NEUTRAL.has(target)
  return rank(target) <= rank(file)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
}

function resolveImport(from: string, specifier: string, files: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const base = relative(ROOT, resolve(ROOT, dirname(from), specifier))
  return [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => files.has(candidate))
}

function importGraph(): Map<string, string[]> {
  const files = SOURCES.flatMap(sourceFiles)
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true)
    const targets = importedFiles
      .map(({ fileName }) => resolveImport(file, fileName, known))
      .filter((target): target is string => target !== undefined)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    for (;;) {
      const member = stack.pop()!
      onStack.delete(member)
      component.push(member)
      if (member === file) break
    }
    if (component.length > 1) found.push(component.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

describe('the import graph of functions, schemas and lib', () => {
  const graph = importGraph()

  it('reads every source file and the imports between them', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get('lib/db/marketStats.ts')).toContain('lib/db/priceGrains.ts')
  })

  it('has no arrow pointing up a layer', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !allowed(file, target)).map((target) => `${file} → ${target}`),
    )
    expect(upward).toEqual(KNOWN_UPWARD)
  })

  it('has no cycle but the one another issue removes', () => {
    expect(cycles(graph)).toEqual(KNOWN_CYCLES)
  })

  it('finds an upward arrow and a cycle when there is one', () => {
    expect(allowed('lib/db/project.ts', 'schemas/catalog.ts')).toBe(false)
    expect(allowed('lib/db/priceBucket.ts', 'lib/markets/recordPrice.ts')).toBe(false)
    expect(allowed('schemas/swap.ts', 'lib/swap/nativeCoin.ts')).toBe(false)
    expect(allowed('schemas/swap.ts', 'lib/constants.ts')).toBe(true)
    expect(allowed('lib/swap/quoteSwap.ts', 'lib/chain/clients.ts')).toBe(true)
    const loop = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(cycles(loop)).toEqual([['a.ts', 'b.ts', 'c.ts']])
  })
})
