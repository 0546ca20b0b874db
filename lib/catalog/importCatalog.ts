import { readFile } from 'node:fs/promises'
import { getAddress, isAddress } from 'viem'
import type * as z from '../../schemas/zod'
import { type CatalogEntry, catalogFileSchema } from '../../schemas/catalog'
import { logger } from '../logger'
import { mapConcurrently } from '../mapConcurrently'
import { backfillPriceHistory } from '../markets/backfillPriceHistory'
import { openPriceHistory } from '../db/priceBucket'
import { upsertProject } from '../db/project'

/** A catalog file that cannot be imported; the message names the entry and the field. */
export class CatalogError extends Error {
  override name = 'CatalogError'
}

const WRITE_CONCURRENCY = 8

function describeEntry(raw: unknown, index: number): string {
  const entry = (raw as { projects?: unknown[] } | undefined)?.projects?.[index] as
    { symbol?: unknown; network?: unknown } | undefined
  const label = [entry?.symbol, entry?.network].filter((part) => typeof part === 'string')
  return `entry ${index}${label.length > 0 ? ` (${label.join(' on ')})` : ''}`
}

function describeIssue(raw: unknown, issue: z.core.$ZodIssue): string {
  const [root, index, ...field] = issue.path
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : []
  const where = [...field, ...keys].map(String).join('.') || '(the entry)'
  if (root === 'projects' && typeof index === 'number') {
    return `${describeEntry(raw, index)}, field ${where}: ${issue.message}`
  }
  return `${issue.path.map(String).join('.') || '(the file)'}: ${issue.message}`
}

/**
 * Parses and validates a catalog file's text with `schemas/catalog.ts`. Every problem is reported
 * at once, each naming the entry (index, symbol, network) and the field; a wrong EIP-55 checksum
 * and two entries for the same token (network and address, any casing) are problems too.
 */
export function parseCatalog(text: string): CatalogEntry[] {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new CatalogError(`the catalog is not valid JSON: ${(error as Error).message}`)
  }
  const parsed = catalogFileSchema.safeParse(raw)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => describeIssue(raw, issue))
    throw new CatalogError(`the catalog is not valid:\n  ${problems.join('\n  ')}`)
  }
  const seen = new Map<string, number>()
  const problems: string[] = []
  parsed.data.projects.forEach((entry, index) => {
    // Mixed case is an EIP-55 checksum: a wrong one is most likely a typo in the address.
    if (!isAddress(entry.address, { strict: true })) {
      problems.push(`${describeEntry(raw, index)}, field address: the checksum does not match`)
    }
    const key = `${entry.network}/${entry.address.toLowerCase()}`
    const first = seen.get(key)
    if (first === undefined) seen.set(key, index)
    else problems.push(`${describeEntry(raw, index)}, field address: repeats entry ${first}`)
  })
  if (problems.length > 0) {
    throw new CatalogError(`the catalog is not valid:\n  ${problems.join('\n  ')}`)
  }
  // Stored checksummed, as every address the service returns.
  return parsed.data.projects.map((entry) => ({
    ...entry,
    address: getAddress(entry.address.toLowerCase()),
  }))
}

/**
 * Upserts each entry as a project (keyed by network and address, so importing again updates in
 * place and keeps market data and watch counts), opens its price history and fills it from the
 * chain: the last 24 hours, 30 days and 12 months (lib/markets/backfillPriceHistory.ts; a node
 * failure there leaves the rest to `npm run prices:backfill` and the sampler, and is logged).
 * Returns the ids. `backfill: false` leaves the history to the sampler.
 */
export async function importCatalogEntries(
  entries: readonly CatalogEntry[],
  { backfill = true }: { backfill?: boolean } = {},
): Promise<string[]> {
  const ids = await mapConcurrently(entries, WRITE_CONCURRENCY, async (entry) => {
    const id = await upsertProject(entry)
    await openPriceHistory(id)
    return id
  })
  if (!backfill) return ids
  const outcomes = await backfillPriceHistory({
    projects: entries.map((entry, index) => ({
      ...entry,
      address: getAddress(entry.address),
      id: ids[index] ?? '',
    })),
  })
  const failed = outcomes.filter((outcome) => outcome.error !== undefined)
  logger.debug('price history backfilled', {
    projects: outcomes.length,
    priced: outcomes.filter((outcome) => outcome.pathId !== undefined).length,
    buckets: outcomes.reduce((sum, outcome) => sum + outcome.written, 0),
    boundariesRead: outcomes.reduce((sum, outcome) => sum + outcome.boundariesRead, 0),
    failed: failed.map(({ projectId, error }) => ({ projectId, error })),
  })
  return ids
}

/** Reads, validates and imports a catalog file; a bad file writes nothing. */
export async function importCatalogFile(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CatalogError(`cannot read ${path}: ${error.code ?? error.message}`)
  })
  return importCatalogEntries(parseCatalog(text))
}
