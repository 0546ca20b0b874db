import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'

// BENCHMARKS.md is made of sections `npm run bench` writes, nothing else: each between markers
// that name it, the commit and the machine load it was measured at, and a digest of its lines,
// so tests/unit/benchmarks.test.ts can tell a table the bench wrote from one edited by hand.
// A partial run (`--startup-only`, `--cold-only`, tests/bench/indexer.ts) rewrites its own
// sections in place and keeps the others as they were measured.

export const BENCHMARKS_FILE = 'BENCHMARKS.md'

/** Every section, in the order the file holds them. */
export const SECTION_IDS = [
  'startup',
  'cold-path',
  'bundles',
  'warm-requests',
  'trade-scale',
  'price-history',
  'trading',
  'quote-cpu',
  'indexer',
  'ws-fan-out',
] as const

export type SectionId = (typeof SECTION_IDS)[number]

export const HEADER = [
  '# Benchmarks',
  '',
  'Written by `npm run bench` (tests/bench/), section by section: each says the commit it measured',
  'and the 1-minute load average of the machine when it started (a 2-core machine shared with other',
  'work: compare ratios and counts more than milliseconds), and carries a digest of its lines that',
  'tests/unit/benchmarks.test.ts checks, so no figure here is written by hand. Medians unless stated.',
  'The one-off measurements behind choices (each measured once, when the choice was made) are in',
  '[docs/measured-choices.md](docs/measured-choices.md).',
  '',
]

/** Where a section was measured: the commit, whether the tree had changes, the load, the date. */
export interface Provenance {
  commit: string
  load: number
  date: string
}

/** The commit measured (with `+changes` when the tree differs from it outside BENCHMARKS.md). */
export function currentCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim()
  const commit = git('rev-parse', '--short=10', 'HEAD')
  const changed = git('status', '--porcelain', '--untracked-files=no')
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith(BENCHMARKS_FILE))
  return changed.length > 0 ? `${commit}+changes` : commit
}

/** Read when a section's measuring starts. */
export function provenanceNow(): Provenance {
  return {
    commit: currentCommit(),
    load: Number((loadavg()[0] ?? 0).toFixed(1)),
    date: new Date().toISOString().slice(0, 10),
  }
}

export function machine(): string {
  return (
    `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`
  )
}

/** The digest of a section's lines, as its opening marker carries it. */
export function digestOf(lines: readonly string[]): string {
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)
}

const OPEN = /^<!-- bench:([\w-]+) commit=(\S+) load=(\S+) date=(\S+) digest=([0-9a-f]+) -->$/

export interface Section {
  id: SectionId
  provenance: Provenance
  /** Its lines, from its `## ` title on, with the line that says where it was measured. */
  lines: string[]
}

/** A section: its title, the line saying where it was measured, then the rest of `body`. */
export function section(id: SectionId, provenance: Provenance, body: readonly string[]): Section {
  const [title = `## ${id}`, ...rest] = body
  const where =
    `_Measured at commit \`${provenance.commit}\` on ${provenance.date}, load average ` +
    `${provenance.load.toFixed(1)} when it started; ${machine()}._`
  return { id, provenance, lines: [title, '', where, ...rest] }
}

function render({ id, provenance, lines }: Section): string[] {
  const { commit, load, date } = provenance
  return [
    `<!-- bench:${id} commit=${commit} load=${load.toFixed(1)} date=${date} digest=${digestOf(lines)} -->`,
    ...lines,
    `<!-- /bench:${id} -->`,
  ]
}

/** The sections of a BENCHMARKS.md text, as written, with what its markers say. */
export function parseSections(text: string): Array<{
  id: string
  provenance: { commit: string; load: string; date: string }
  digest: string
  lines: string[]
  /** Line numbers (0-based) of its opening and closing markers. */
  from: number
  to: number
}> {
  const lines = text.split('\n')
  const sections: ReturnType<typeof parseSections> = []
  for (let index = 0; index < lines.length; index += 1) {
    const open = OPEN.exec(lines[index] ?? '')
    if (!open) continue
    const [, id = '', commit = '', load = '', date = '', digest = ''] = open
    const close = lines.indexOf(`<!-- /bench:${id} -->`, index + 1)
    if (close < 0) throw new Error(`${BENCHMARKS_FILE}: section ${id} is not closed`)
    sections.push({
      id,
      provenance: { commit, load, date },
      digest,
      lines: lines.slice(index + 1, close),
      from: index,
      to: close,
    })
    index = close
  }
  return sections
}

/**
 * Writes `fresh` into BENCHMARKS.md in place of the sections of the same ids, keeping the other
 * sections as they were, all in SECTION_IDS order under the header.
 */
export function writeSections(fresh: readonly Section[]): void {
  const text = existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, 'utf8') : ''
  const lines = text.split('\n')
  const byId = new Map<string, string[]>(
    parseSections(text).map((old) => [old.id, lines.slice(old.from, old.to + 1)]),
  )
  for (const next of fresh) byId.set(next.id, render(next))
  const body = SECTION_IDS.flatMap((id) => {
    const written = byId.get(id)
    return written ? [...written, ''] : []
  })
  writeFileSync(BENCHMARKS_FILE, [...HEADER, ...body].join('\n'))
}
