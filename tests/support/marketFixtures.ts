import { randomUUID } from 'node:crypto'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { loginAccount } from '../../functions/account/loginAccount'
import { registerAccount } from '../../functions/account/registerAccount'
import { importCatalogEntries } from '../../lib/catalog/importCatalog'
import { getProjectMarket } from '../../lib/db/marketStats'
import type { Project } from '../../lib/db/project'
import type { CatalogEntry } from '../../schemas/catalog'

// Fixtures for the market routes: each call makes its own wallet, account or project.

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

export function randomAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/** A registered, logged-in account: its access token. */
export async function accountSession() {
  const credentials = { username: `market_${randomUUID().slice(0, 8)}`, password: randomUUID() }
  await registerAccount(credentials)
  const { token } = await loginAccount(credentials, '198.51.100.1')
  return { username: credentials.username, access: token.access }
}

/** A catalog entry for a token at a fresh address (no contract there unless `address` says). */
export function catalogEntry(overrides: Partial<CatalogEntry> = {}): CatalogEntry {
  const symbol = overrides.symbol ?? `T${randomUUID().slice(0, 5).toUpperCase()}`
  return {
    network: 'ethereum',
    address: randomAddress(),
    name: `Test ${symbol}`,
    symbol,
    decimals: 18,
    industry: 'Testing',
    description: 'A project made by a test.',
    social: { website: 'https://example.org/test' },
    tags: ['test'],
    categories: ['Tests'],
    ...overrides,
  }
}

/** Imports one project, as the catalog command does, and returns it. */
export async function createProject(overrides: Partial<CatalogEntry> = {}): Promise<Project> {
  const entry = catalogEntry(overrides)
  const [id] = await importCatalogEntries([entry])
  const project = id === undefined ? undefined : (await getProjectMarket(id))?.project
  if (!project) throw new Error('the project was not stored')
  return project
}
