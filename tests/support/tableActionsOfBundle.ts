import { readFileSync } from 'node:fs'

// What a function's bundle can do to the table, per code path: the lines of the project's own
// sources that survived tree-shaking into the bundle (read from its source map), and on those
// lines the DynamoDB commands it sends and, for transactions, the kinds of item it writes. A
// function that imports a module keeps only the functions its handler reaches, so a delete in a
// sibling function of the same file is not counted (issue 22: grants were per file).

export interface SourceMapPayload {
  sources: string[]
  mappings: string
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]))

/** The VLQ fields of one mapping segment (source map v3). */
function decodeSegment(segment: string): number[] {
  const fields: number[] = []
  let value = 0
  let shift = 0
  for (const char of segment) {
    const digit = DIGIT.get(char)
    if (digit === undefined) throw new Error(`not a source map segment: ${segment}`)
    value += (digit & 31) << shift
    if (digit & 32) {
      shift += 5
      continue
    }
    fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
    value = 0
    shift = 0
  }
  return fields
}

/** For each source of the map, the (0-based) original lines some generated code maps to. */
export function survivingLines(map: SourceMapPayload): Map<string, Set<number>> {
  const lines = new Map<string, Set<number>>()
  let source = 0
  let line = 0
  for (const generatedLine of map.mappings.split(';')) {
    for (const segment of generatedLine.split(',')) {
      if (!segment) continue
      const fields = decodeSegment(segment)
      if (fields.length < 4) continue
      source += fields[1] ?? 0
      line += fields[2] ?? 0
      const name = map.sources[source] ?? ''
      let kept = lines.get(name)
      if (!kept) lines.set(name, (kept = new Set()))
      kept.add(line)
    }
  }
  return lines
}

const COMMAND_ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
}

/**
 * The `dynamodb:` actions a bundle can call, from its source map (`sources` relative to the
 * repository, as the package's sourcemaps/ folder holds them) and the sources in `root`.
 */
export function tableActionsOfBundle(map: SourceMapPayload, root = '.'): string[] {
  const actions = new Set<string>()
  const transactionItems = new Set<string>()
  let transactions = false
  for (const [source, lines] of survivingLines(map)) {
    // The project's own code: a dependency's lines never send the project's commands.
    if (!/^(functions|lib|schemas)\/.*\.ts$/.test(source)) continue
    const text = readFileSync(`${root}/${source}`, 'utf8').split('\n')
    for (const line of lines) {
      const code = text[line] ?? ''
      for (const [, command] of code.matchAll(/new (\w+)Command\(/g)) {
        if (command === 'TransactWrite') transactions = true
        // Not the table's: a post to a WebSocket connection (execute-api, its own grant).
        else if (command === 'PostToConnection') continue
        else if (command && COMMAND_ACTIONS[command]) actions.add(COMMAND_ACTIONS[command])
        else throw new Error(`${source}:${line + 1} sends ${command}Command, unknown here`)
      }
      for (const [, kind] of code.matchAll(/\b(Put|Update|Delete|ConditionCheck): \{/g)) {
        transactionItems.add(`${kind}Item`)
      }
    }
  }
  if (transactions) for (const item of transactionItems) actions.add(item)
  return [...actions].map((action) => `dynamodb:${action}`).sort()
}
