import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { getAddress } from 'viem'
import type { NetworkName } from '../networkNames'
import { db, tableName } from './client'
import { nameBasedUuid } from './ids'
import { batchGetItems } from './batchGet'
import { queryAll } from './queryAll'
import { CATALOG_PARTITION, projectKey } from './keys'

/** The catalog fields a project keeps as the catalog gives them. */
interface CatalogFields {
  network: NetworkName
  name: string
  symbol: string
  decimals: number
  industry: string
  description: string
  circulatingSupply?: string
  /** Deposits of it below this, in whole units, are dust while it has no price (DECISIONS §9.1). */
  dustMinimum?: string
}

/** A project of the catalog: a token the service knows, with its catalog fields. */
export interface Project extends CatalogFields {
  id: string
  /** Checksummed (EIP-55) when written, so readers answer it as is. */
  address: `0x${string}`
  social: Record<string, string>
  tags: Array<{ id: string; tag: string }>
  categories: Array<{ id: string; category: string }>
  createdAt: string
}

/** A catalog item as a Project (for repositories that read the same item). */
export function toProject(item: Record<string, unknown>): Project {
  return {
    id: String(item.id),
    network: item.network as NetworkName,
    address: item.address as `0x${string}`,
    name: String(item.name),
    symbol: String(item.symbol),
    decimals: Number(item.decimals),
    industry: (item.industry as string | undefined) ?? '',
    description: (item.description as string | undefined) ?? '',
    circulatingSupply: item.circulatingSupply as string | undefined,
    social: (item.social ?? {}) as Record<string, string>,
    tags: (item.tags ?? []) as Project['tags'],
    categories: (item.categories ?? []) as Project['categories'],
    createdAt: String(item.createdAt),
  }
}

/** Every item of the catalog partition: one Query (paged by DynamoDB past 1 MB). */
export async function queryCatalogItems(): Promise<Record<string, unknown>[]> {
  return queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': CATALOG_PARTITION },
  })
}

/** A catalog token as the deposit indexer weighs a deposit of it (DECISIONS §9.1, dust). */
export interface CatalogTokenValue {
  /** Checksummed. */
  address: `0x${string}`
  /**
   * The catalog's own floor for deposits of it while it has no path price, whole units (a
   * decimal string), if it sets one.
   */
  dustMinimum?: string
}

/**
 * The catalog's tokens on `network`: one Query of the catalog partition (paged past 1 MB) reading
 * three attributes of each project. Not the project's `price`: that is a spot quote through any
 * pool, which an attacker's pool can move (DECISIONS §10.4); the indexer prices by the path
 * (lib/db/pathPrices.ts).
 */
export async function listCatalogTokens(network: NetworkName): Promise<CatalogTokenValue[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: '#network = :network',
    ProjectionExpression: '#network, #address, #dustMinimum',
    ExpressionAttributeNames: {
      '#network': 'network',
      '#address': 'address',
      '#dustMinimum': 'dustMinimum',
    },
    ExpressionAttributeValues: { ':pk': CATALOG_PARTITION, ':network': network },
  })
  return items.map((item) => ({
    address: getAddress(String(item.address)),
    ...(typeof item.dustMinimum === 'string' && { dustMinimum: item.dustMinimum }),
  }))
}

/** The whole catalog. */
export async function listProjects(): Promise<Project[]> {
  return (await queryCatalogItems()).map(toProject)
}

export function projectId(network: string, address: string): string {
  return nameBasedUuid(`project/${network}/${address.toLowerCase()}`)
}

function labelled(kind: 'tag' | 'category', labels: string[]) {
  return labels.map((label) => ({ id: nameBasedUuid(`${kind}/${label.toLowerCase()}`), label }))
}

/** What the catalog says about a project (schemas/catalog validates it; the table does not care how). */
export interface ProjectEntry extends CatalogFields {
  address: string
  social: Record<string, string | undefined>
  tags: string[]
  categories: string[]
}

/**
 * Creates or updates a project from a catalog entry. Only catalog fields are written, so
 * metrics kept on the same item (watchlist counts, market data) survive a re-import.
 */
export async function upsertProject(entry: ProjectEntry, now = new Date()): Promise<string> {
  const id = projectId(entry.network, entry.address)
  const fields = {
    type: 'Project',
    id,
    network: entry.network,
    // Checksummed here, once, so that the project route need not hash it on every read (and
    // its bundle carries no keccak: about 3 ms of a cold start).
    address: getAddress(entry.address),
    name: entry.name,
    symbol: entry.symbol,
    decimals: entry.decimals,
    industry: entry.industry,
    description: entry.description,
    circulatingSupply: entry.circulatingSupply,
    dustMinimum: entry.dustMinimum,
    social: { id: nameBasedUuid(`social/${id}`), ...entry.social },
    tags: labelled('tag', entry.tags).map(({ id: tagId, label }) => ({ id: tagId, tag: label })),
    categories: labelled('category', entry.categories).map(({ id: categoryId, label }) => ({
      id: categoryId,
      category: label,
    })),
  }
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined)
  const names = entries.map(([name]) => name)
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: projectKey(id),
      UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}, #createdAt = if_not_exists(#createdAt, :createdAt)`,
      ExpressionAttributeNames: Object.fromEntries(
        [...names, 'createdAt'].map((name) => [`#${name}`, name]),
      ),
      ExpressionAttributeValues: {
        ...Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
        ':createdAt': now.toISOString(),
      },
    }),
  )
  return id
}

/**
 * The catalog projects of `network` among `addresses`, by lower-cased address: one BatchGetItem
 * of their derived ids (none for no address).
 */
export async function findCatalogTokens(
  network: NetworkName,
  addresses: readonly string[],
): Promise<Map<string, Project>> {
  const distinct = [...new Set(addresses.map((address) => address.toLowerCase()))]
  const found = new Map<string, Project>()
  if (distinct.length === 0) return found
  const items = await batchGetItems(
    distinct.map((address) => projectKey(projectId(network, address))),
  )
  for (const item of items.values()) {
    const project = toProject(item)
    found.set(project.address.toLowerCase(), project)
  }
  return found
}
