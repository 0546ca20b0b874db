import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../../../../lib/docs/importGraph'
import { layoutDocuments } from '../../../../lib/docs/layoutDocs'
import {
  domainArrows,
  LAYOUT_END,
  LAYOUT_START,
  layoutTable,
  undescribedFolders,
  undescribedRooms,
  withLayoutSection,
} from '../../../../lib/docs/layoutTables'

// The docs' layout tables are drawn from the code (issue 42): README.md and docs/architecture.md
// hold exactly what `npm run docs:layout` writes from the import graph and lib/docs/layers.ts.

const ROOT = resolve(import.meta.dirname, '../../../..')
const graph = importGraph(ROOT)

describe('the layout tables of the docs', () => {
  it('are what npm run docs:layout writes (run it after moving or adding a folder)', async () => {
    for (const { path, current, written } of await layoutDocuments(ROOT)) {
      expect(current, `${path} is stale: npm run docs:layout`).toBe(written)
    }
  })

  it('describe every folder that holds source, and no folder that does not', () => {
    expect(undescribedFolders(graph)).toEqual({ undescribed: [], stale: [] })
  })

  it('describe every room of lib/routing that holds source, and no room that does not', () => {
    expect(undescribedRooms(graph)).toEqual({ undescribed: [], stale: [] })
  })

  it('name a folder the code has and the docs did not (lib/routing) under its layer', () => {
    const rows = layoutTable(graph).split('\n')

    expect(rows).toContainEqual(expect.stringMatching(/^\| domains \| `lib\/routing\/` \|/))
    expect(rows).toContainEqual(expect.stringMatching(/^\| chain and keys \| `lib\/chain\/` \|/))
    expect(rows.findIndex((row) => row.includes('`functions/<area>/`'))).toBeLessThan(
      rows.findIndex((row) => row.includes('`lib/db/`')),
    )
  })

  it('draw the arrows between domains from the imports, not from prose', () => {
    const made = new Map([
      ['lib/swap/a.ts', ['lib/routing/b.ts', 'lib/db/c.ts']],
      ['lib/routing/b.ts', ['lib/send/d.ts']],
      ['lib/send/d.ts', []],
      ['lib/auth/e.ts', ['lib/db/c.ts']],
      ['lib/db/c.ts', []],
    ])

    expect(domainArrows(made)).toBe(
      'Between the domains the arrows run `swap → routing`; `routing → send`; `auth` import no ' +
        'other domain.',
    )
  })

  it('finds a stale section, and refuses a document without its markers', () => {
    const document = `# A\n\n${LAYOUT_START}\nold\n${LAYOUT_END}\n`

    expect(withLayoutSection(document, 'new')).toBe('# A\n\nnew\n')
    expect(() => withLayoutSection('# A\n', 'new')).toThrow(/markers/)
    expect(() => withLayoutSection(`${document}${LAYOUT_START}\n`, 'new')).toThrow(/markers/)
  })
})
