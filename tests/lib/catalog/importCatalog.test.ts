import '../../support/env'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CatalogError, importCatalogFile, parseCatalog } from '../../../lib/catalog/importCatalog'
import { getProjectMarket } from '../../../lib/db/marketStats'
import { projectId } from '../../../lib/db/project'
import { watchProject } from '../../../lib/db/watchlist'
import { readPriceHistory } from '../../../lib/markets/readPriceHistory'
import { catalogEntry, randomAddress } from '../../support/marketFixtures'

const folder = mkdtempSync(join(tmpdir(), 'catalog-'))
let files = 0

function catalogFile(content: unknown): string {
  files += 1
  const path = join(folder, `catalog-${files}.json`)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

async function rejection(promise: Promise<unknown>): Promise<CatalogError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof CatalogError))
    throw new Error(`expected a CatalogError, got ${String(error)}`)
  return error
}

describe('catalog import', () => {
  it('imports every project with its price history, and again as an upsert', async () => {
    const entries = [catalogEntry(), catalogEntry({ network: 'altchain', decimals: 8 })]
    const path = catalogFile({ projects: entries })

    const ids = await importCatalogFile(path)
    const watcher = randomAddress()
    await watchProject(watcher, ids[0] ?? '')
    const renamed = [{ ...entries[0], name: 'Renamed' }, entries[1]]
    const again = await importCatalogFile(catalogFile({ projects: renamed }))

    expect(again).toEqual(ids)
    expect(ids).toEqual(entries.map((entry) => projectId(entry.network, entry.address)))
    const first = await getProjectMarket(ids[0] ?? '')
    expect(first?.project.name).toBe('Renamed')
    expect(first?.market.watchLists).toBe(1)
    expect(await readPriceHistory(ids[1] ?? '', 'day')).toEqual([])
  })

  it('names the bad entry and field, and writes nothing', async () => {
    const good = catalogEntry()
    const bad = catalogEntry({ symbol: 'BAD', address: '0x1234' })
    const path = catalogFile({ projects: [good, bad] })

    const error = await rejection(importCatalogFile(path))

    expect(error.message).toContain('entry 1 (BAD on ethereum), field address: must be a 0x')
    expect(await getProjectMarket(projectId(good.network, good.address))).toBeUndefined()
  })

  it('reports every problem at once, unknown fields included', () => {
    const text = JSON.stringify({
      projects: [
        { ...catalogEntry({ symbol: 'ONE' }), decimals: 40 },
        { ...catalogEntry({ symbol: 'TWO' }), network: 'bitcoin' },
        { ...catalogEntry({ symbol: 'THREE' }), logo: 'x.png' },
      ],
    })

    const error = (() => {
      try {
        parseCatalog(text)
      } catch (caught) {
        return caught as Error
      }
    })()

    expect(error?.message.split('\n').slice(1)).toEqual([
      expect.stringContaining('entry 0 (ONE on ethereum), field decimals:'),
      expect.stringContaining('entry 1 (TWO on bitcoin), field network:'),
      expect.stringContaining('entry 2 (THREE on ethereum), field logo:'),
    ])
  })

  it('refuses two entries for the same token, whatever the address casing', () => {
    const entry = catalogEntry({ symbol: 'DUP' })
    const text = JSON.stringify({
      projects: [entry, { ...entry, address: entry.address.toLowerCase() }],
    })

    expect(() => parseCatalog(text)).toThrow(
      'entry 1 (DUP on ethereum), field address: repeats entry 0',
    )
  })

  it('refuses an address whose EIP-55 checksum is wrong, and stores addresses checksummed', () => {
    const entry = catalogEntry({ symbol: 'CASE' })
    const flipped = entry.address.replace(/[a-f]/, (letter) => letter.toUpperCase())
    const lower = catalogEntry({ address: entry.address.toLowerCase() })

    expect(() =>
      parseCatalog(JSON.stringify({ projects: [{ ...entry, address: flipped }] })),
    ).toThrow('entry 0 (CASE on ethereum), field address: the checksum does not match')
    expect(parseCatalog(JSON.stringify({ projects: [lower] }))[0]?.address).toBe(entry.address)
  })

  it('refuses a file that is not JSON or has no projects', () => {
    expect(() => parseCatalog('{"projects": [')).toThrow(/not valid JSON/)
    expect(() => parseCatalog('{"projects": []}')).toThrow(/projects/)
  })

  it('ships an example catalog of real tokens that validates', () => {
    const example = parseCatalog(readFileSync('lib/catalog/example.catalog.json', 'utf8'))

    expect(example.map(({ network, symbol }) => `${network}:${symbol}`)).toContain('ethereum:USDC')
    expect(example.length).toBeGreaterThanOrEqual(10)
  })

  it('runs as `npm run catalog:import -- <file>` and exits 1 naming the problem', () => {
    const path = catalogFile({ projects: [{ ...catalogEntry({ symbol: 'CLI' }), decimals: -1 }] })

    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'lib/catalog/importCatalogCli.ts', path],
      {
        encoding: 'utf8',
        env: process.env,
      },
    )

    expect(run.status).toBe(1)
    expect(run.stderr).toContain('entry 0 (CLI on ethereum), field decimals:')
  })
})
