import { readFileSync, writeFileSync } from 'node:fs'

// The per-route cost table of docs/security.md, between two markers: rendered from the counts
// tests/functions/requestCosts.test.ts measures, so the page cannot drift from the code.
// UPDATE_COST_TABLE=1 writes the rendered table into the page instead of comparing.

export const COST_TABLE_PAGE = 'docs/security.md'
const START = '<!-- cost-table:start (tests/functions/requestCosts.test.ts) -->'
const END = '<!-- cost-table:end -->'

export interface CostRow {
  route: string
  /** 'none', 'wallet' or 'account'. */
  token: string
  /** The per-client budget the route spends and its weight, e.g. `nonce (1)` or `rpc`, or ''. */
  budget: string
  /**
   * The RPC calls the route is charged before its first call, its worst case (lib/rpcCallCaps.ts):
   * e.g. `40`, `3 if it calls`, or '' for a route that calls no node.
   */
  rpcCharged: string
  dynamoCalls: number
  dynamoCommands: string
  rpcCalls: number
  rpcRoundTrips: number
}

const HEADER = [
  'route',
  'token',
  'per-client budget (weight)',
  'DynamoDB calls',
  'DynamoDB commands',
  'RPC calls',
  'RPC round trips',
  'RPC calls charged (worst case)',
]

function cells(row: CostRow): string[] {
  return [
    `\`${row.route}\``,
    row.token,
    row.budget || '—',
    String(row.dynamoCalls),
    row.dynamoCommands || '—',
    String(row.rpcCalls),
    String(row.rpcRoundTrips),
    row.rpcCharged || '—',
  ]
}

/** The table as markdown (prettier may align it: compare with tableCells). */
export function renderCostTable(rows: readonly CostRow[]): string {
  const line = (values: string[]) => `| ${values.join(' | ')} |`
  return [line(HEADER), line(HEADER.map(() => '---')), ...rows.map((row) => line(cells(row)))].join(
    '\n',
  )
}

/** The cells of a markdown table, row by row, whitespace and alignment dropped. */
export function tableCells(markdown: string): string[][] {
  return markdown
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    )
    .filter((row) => !row.every((cell) => /^:?-+:?$/.test(cell)))
}

/** The table as docs/security.md holds it, between its markers. */
export function documentedCostTable(): string {
  const page = readFileSync(COST_TABLE_PAGE, 'utf8')
  const start = page.indexOf(START)
  const end = page.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${COST_TABLE_PAGE} has no cost table markers`)
  return page.slice(start + START.length, end)
}

/** Writes the rendered table between the page's markers. */
export function writeCostTable(rows: readonly CostRow[]): void {
  const page = readFileSync(COST_TABLE_PAGE, 'utf8')
  const start = page.indexOf(START)
  const end = page.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${COST_TABLE_PAGE} has no cost table markers`)
  writeFileSync(
    COST_TABLE_PAGE,
    `${page.slice(0, start + START.length)}\n\n${renderCostTable(rows)}\n\n${page.slice(end)}`,
  )
}
