import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  BENCHMARKS_FILE,
  digestOf,
  HEADER,
  parseSections,
  SECTION_IDS,
} from '../bench/benchmarksFile'

// BENCHMARKS.md holds only what `npm run bench` wrote (tests/bench/benchmarksFile.ts): every
// table inside a section whose marker names the commit and the machine load it was measured at,
// and whose lines still have the digest the bench gave them, so a figure edited by hand fails.

const text = readFileSync(join(resolve(import.meta.dirname, '../..'), BENCHMARKS_FILE), 'utf8')
const lines = text.split('\n')
const sections = parseSections(text)

describe('BENCHMARKS.md', () => {
  it('holds every section the bench writes, once each, in its order', () => {
    expect(sections.map((section) => section.id)).toEqual([...SECTION_IDS])
  })

  it('says for each section the commit and the load it was measured at', () => {
    for (const { id, provenance, lines: body } of sections) {
      expect({ id, commit: provenance.commit }).toEqual({
        id,
        commit: expect.stringMatching(/^[0-9a-f]{7,40}(\+changes)?$/),
      })
      expect(Number.isFinite(Number(provenance.load)), `${id}: load ${provenance.load}`).toBe(true)
      expect(provenance.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      // The reader sees it too, under the section's title.
      expect(body[2]).toContain(
        `_Measured at commit \`${provenance.commit}\` on ${provenance.date}, load average ${provenance.load} when it started;`,
      )
    }
  })

  it('has every section as the bench wrote it (a digest of its lines)', () => {
    for (const { id, digest, lines: body } of sections) {
      expect({ id, digest: digestOf(body) }).toEqual({ id, digest })
    }
  })

  it('has no line of its own outside the sections but the header, so no table by hand', () => {
    const inside = new Set(
      sections.flatMap(({ from, to }) => Array.from({ length: to - from + 1 }, (_, i) => from + i)),
    )
    const outside = lines.filter((line, index) => !inside.has(index) && line !== '')

    expect(outside).toEqual(HEADER.filter((line) => line !== ''))
    expect(lines.filter((line, index) => line.startsWith('|') && !inside.has(index))).toEqual([])
  })
})
