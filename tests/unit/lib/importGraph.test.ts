import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The layers (docs/architecture.md), highest first; a file may import its own layer or one below:
//   functions, each network's routes (lib/networkRoutes), tooling (lib/local, lib/openapi,
//   lib/catalog, lib/serverless, lib/networks)
//   lib/http                        the handler wrapper, above the domains it serves
//   schemas                         imports only schemas and the neutral modules
//   lib/<domain>                    auth, send, swap, transfer, clientSigning, markets, trades, ...
//   lib/chain | lib/wallet
//   lib/db | lib/aws
//   neutral                         lib/errors.ts and the few modules every layer may use
// Within a layer, folders may import each other one way only: no folder-to-folder loop (say
// lib/swap -> lib/transfer -> lib/swap), even when no file-level cycle closes it.

const ROOT = resolve(import.meta.dirname, '../../..')
const SOURCES = ['functions', 'schemas', 'lib']

const NEUTRAL = new Set([
  'lib/errors.ts',
  'lib/config.ts',
  'lib/logger.ts',
  // Business metrics as EMF lines: stdout only, like the logger.
  'lib/metrics.ts',
  'lib/constants.ts',
  // The networks served, which the schemas' enum and the configuration both read, and the
  // network table they are named in.
  'lib/networkNames.ts',
  'lib/networks.ts',
  // Pure helpers with no home of their own: the interface's timestamp, bounded concurrency.
  'lib/formatTimestamp.ts',
  'lib/mapConcurrently.ts',
  // The request's pending session check, which every write and broadcast awaits.
  'lib/admission.ts',
  // The zod entry: lib/config parses the environment with it.
  'schemas/zod.ts',
])

const TOOLING = [
  'lib/local/',
  'lib/openapi/',
  'lib/catalog/',
  'lib/serverless/',
  // The network operations and the files `npm run networks` writes from the table.
  'lib/networks/',
  // The route of each operation, which each network's handler file calls.
  'lib/networkRoutes/',
]

/** The layer rank: higher may import lower, never the other way. */
function rank(file: string): number {
  if (NEUTRAL.has(file)) return 0
  if (file.startsWith('functions/') || TOOLING.some((dir) => file.startsWith(dir))) return 6
  if (file.startsWith('lib/http/')) return 5
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

/** Each source file and the source files it imports (type-only imports included). */
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

/**
 * The folder graph: an arrow between two folders for every import between their files. The
 * neutral modules belong to no folder, being everyone's.
 */
function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    if (NEUTRAL.has(file)) continue
    const from = dirname(file)
    const arrows = folders.get(from) ?? new Set<string>()
    folders.set(from, arrows)
    for (const target of targets) {
      if (!NEUTRAL.has(target) && dirname(target) !== from) arrows.add(dirname(target))
    }
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]))
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    for (;;) {
      const member = stack.pop()!
      onStack.delete(member)
      component.push(member)
      if (member === node) break
    }
    if (component.length > 1) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the import graph of functions, schemas and lib', () => {
  const graph = importGraph()

  it('reads every source file and the imports between them', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get('lib/http/defineHandler.ts')).toContain('lib/admission.ts')
    expect(graph.get('lib/swap/signedSwap.ts')).toContain('lib/send/signedRequest.ts')
  })

  it('has no arrow pointing up a layer', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !allowed(file, target)).map((target) => `${file} → ${target}`),
    )
    expect(upward).toEqual([])
  })

  it('has no cycle between files', () => {
    expect(cycles(graph)).toEqual([])
  })

  it('has no loop between folders', () => {
    expect(cycles(folderGraph(graph))).toEqual([])
  })

  it('finds an upward arrow when there is one', () => {
    expect(allowed('lib/db/project.ts', 'schemas/catalog.ts')).toBe(false)
    expect(allowed('lib/db/priceBucket.ts', 'lib/markets/recordPrice.ts')).toBe(false)
    expect(allowed('schemas/swap.ts', 'lib/swap/nativeCoin.ts')).toBe(false)
    expect(allowed('schemas/swap.ts', 'lib/constants.ts')).toBe(true)
    expect(allowed('lib/swap/quoteSwap.ts', 'lib/chain/clients.ts')).toBe(true)
    // lib/http sits above the domains: it may use lib/auth, no domain may use it.
    expect(allowed('lib/http/authenticate.ts', 'lib/auth/guard.ts')).toBe(true)
    expect(allowed('lib/auth/sessions.ts', 'lib/http/types.ts')).toBe(false)
    expect(allowed('lib/markets/listWatchlist.ts', 'lib/http/types.ts')).toBe(false)
  })

  it('finds a cycle of files, and a loop of folders no file cycle closes', () => {
    const fileLoop = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(cycles(fileLoop)).toEqual([['a.ts', 'b.ts', 'c.ts']])
    // The house before issue 24: lib/swap/signedRequest.ts imported lib/transfer, whose files
    // imported lib/swap's gas limit and send; and lib/auth and lib/http imported each other.
    const before = new Map([
      ['lib/swap/signedRequest.ts', ['lib/transfer/transferTokens.ts', 'lib/errors.ts']],
      ['lib/transfer/transferTokens.ts', ['lib/swap/gasLimit.ts', 'lib/errors.ts']],
      ['lib/swap/gasLimit.ts', ['lib/errors.ts']],
      ['lib/auth/tokens.ts', ['lib/http/types.ts']],
      ['lib/http/types.ts', []],
      ['lib/http/authGuard.ts', ['lib/auth/tokens.ts']],
      ['lib/errors.ts', []],
    ])
    expect(cycles(before)).toEqual([])
    expect(cycles(folderGraph(before))).toEqual([
      ['lib/swap', 'lib/transfer'],
      ['lib/auth', 'lib/http'],
    ])
  })
})
