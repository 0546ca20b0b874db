import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { NEUTRAL_FILES } from './layers'

// The source's import graph, read the way TypeScript reads imports (type-only ones too): what the
// import-graph test checks and the layout tables are drawn from.

const SOURCES = ['functions', 'schemas', 'lib']

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
}

function resolveImport(
  root: string,
  from: string,
  specifier: string,
  files: Set<string>,
): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const base = relative(root, resolve(root, dirname(from), specifier))
  return [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => files.has(candidate))
}

/** Each source file (relative to `root`) and the source files it imports. */
export function importGraph(root: string): Map<string, string[]> {
  const files = SOURCES.flatMap((dir) => sourceFiles(root, dir))
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
    const targets = importedFiles
      .map(({ fileName }) => resolveImport(root, file, fileName, known))
      .filter((target): target is string => target !== undefined)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/**
 * The folder graph: an arrow between two folders for every import between their files. The
 * neutral modules belong to no folder, being everyone's.
 */
export function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    if (NEUTRAL_FILES.has(file)) continue
    const from = dirname(file)
    const arrows = folders.get(from) ?? new Set<string>()
    folders.set(from, arrows)
    for (const target of targets) {
      if (!NEUTRAL_FILES.has(target) && dirname(target) !== from) arrows.add(dirname(target))
    }
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]))
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const lowOf = (node: string) => low.get(node) ?? 0
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.size - 1)
    stack.push(node)
    onStack.add(node)
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(lowOf(node), lowOf(target)))
      } else if (onStack.has(target)) {
        low.set(node, Math.min(lowOf(node), index.get(target) ?? 0))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member)
      component.push(member)
      if (member === node) break
    }
    if (component.length > 1) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}
