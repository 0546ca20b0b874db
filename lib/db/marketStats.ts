import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { formatUnits, parseUnits } from 'viem'
import type { PriceChangePeriod } from './priceGrains'
import { batchGetItems, itemId } from './batchGet'
import { db, tableName } from './client'
import { projectKey } from './keys'
import { type Project, queryCatalogItems, toProject } from './project'
import { isConditionFailed } from './writeConflicts'

// Market metrics live on the project's own catalog item, beside the catalog fields, so the
// project route is one GetItem. Each writer sets only its own attributes: the sampler the price
// and its changes, the market sync the chain metrics, the watchlist the count, the catalog import
// the catalog fields. Amounts are decimal strings in the table.

const PRICE_DECIMALS = 18

export type PriceChanges = Record<PriceChangePeriod, number>

export interface MarketStats {
  /** USD per whole token, 18 decimals; undefined until the first sample. */
  priceE18?: bigint
  pricedAt?: Date
  /** Percent, from the service's own buckets; 0 where there is no reference yet. */
  priceChanges: PriceChanges
  /** Base units, from the token contract. */
  totalSupply?: bigint
  /** Base units of the token swapped on its pairs over the last 24 h. */
  volume24h: bigint
  marketPairs: number
  /** 1 for the largest market cap among known projects; 0 while the cap is unknown. */
  marketRank: number
  contractInception?: Date
  watchLists: number
  syncedAt?: Date
}

export interface ProjectMarket {
  project: Project
  market: MarketStats
}

const CHANGE_ATTRIBUTES: Record<PriceChangePeriod, string> = {
  '24h': 'priceChange24h',
  '7d': 'priceChange7d',
  '30d': 'priceChange30d',
  '60d': 'priceChange60d',
  '90d': 'priceChange90d',
}

// The table stores these as ISO strings and decimal strings.
const optionalDate = (value: unknown) =>
  value === undefined ? undefined : new Date(value as string)
const optionalBigint = (value: unknown) =>
  value === undefined ? undefined : BigInt(value as string)

function toMarketStats(item: Record<string, unknown>): MarketStats {
  const changes = Object.fromEntries(
    Object.entries(CHANGE_ATTRIBUTES).map(([period, name]) => [period, Number(item[name] ?? 0)]),
  ) as PriceChanges
  return {
    priceE18:
      item.price === undefined ? undefined : parseUnits(item.price as string, PRICE_DECIMALS),
    pricedAt: optionalDate(item.priceAt),
    priceChanges: changes,
    totalSupply: optionalBigint(item.totalSupply),
    volume24h: optionalBigint(item.volume24h) ?? 0n,
    marketPairs: Number(item.marketPairs ?? 0),
    marketRank: Number(item.marketRank ?? 0),
    contractInception: optionalDate(item.contractInception),
    watchLists: Number(item.watchLists ?? 0),
    syncedAt: optionalDate(item.marketSyncedAt),
  }
}

function toProjectMarket(item: Record<string, unknown>): ProjectMarket {
  return { project: toProject(item), market: toMarketStats(item) }
}

/** A project with its market metrics: one GetItem. */
export async function getProjectMarket(id: string): Promise<ProjectMarket | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: projectKey(id) }))
  return Item ? toProjectMarket(Item) : undefined
}

/**
 * Projects with their metrics, in the order of `ids`, unknown ids left out: one BatchGetItem per
 * 100 keys.
 */
export async function getProjectMarkets(ids: readonly string[]): Promise<ProjectMarket[]> {
  const items = await batchGetItems([...new Set(ids)].map(projectKey))
  return ids.flatMap((id) => {
    const item = items.get(itemId(projectKey(id)))
    return item ? [toProjectMarket(item)] : []
  })
}

/** Every project with its metrics: a Query on the catalog partition (scheduled jobs only). */
export async function listProjectMarkets(): Promise<ProjectMarket[]> {
  return (await queryCatalogItems()).map(toProjectMarket)
}

/**
 * Sets the latest price and its changes (and the total supply read with it), unless the project is
 * gone or holds a newer price (a late or replayed sample never overwrites a fresher one). Returns
 * whether it was written.
 */
export async function setProjectPrice(
  id: string,
  update: { priceE18: bigint; at: Date; changes: PriceChanges; totalSupply?: bigint },
): Promise<boolean> {
  const changes: Array<{ name: string; value: number | string }> = Object.entries(
    CHANGE_ATTRIBUTES,
  ).map(([period, name]) => ({
    name,
    value: update.changes[period as PriceChangePeriod],
  }))
  // Read with the price, so a token that burns shows the supply of the price's moment.
  if (update.totalSupply !== undefined) {
    changes.push({ name: 'totalSupply', value: update.totalSupply.toString() })
  }
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: projectKey(id),
        UpdateExpression: `SET #price = :price, #priceAt = :at, ${changes
          .map(({ name }) => `#${name} = :${name}`)
          .join(', ')}`,
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(#priceAt) OR #priceAt <= :at)',
        ExpressionAttributeNames: {
          '#price': 'price',
          '#priceAt': 'priceAt',
          ...Object.fromEntries(changes.map(({ name }) => [`#${name}`, name])),
        },
        ExpressionAttributeValues: {
          ':price': formatUnits(update.priceE18, PRICE_DECIMALS),
          ':at': update.at.toISOString(),
          ...Object.fromEntries(changes.map(({ name, value }) => [`:${name}`, value])),
        },
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}

/** What one market sync learned about a project; absent fields keep their stored value. */
export interface MarketMetrics {
  totalSupply?: bigint
  volume24h?: bigint
  marketPairs?: number
  marketRank: number
  contractInception?: Date
  syncedAt: Date
}

/** Writes the market sync's metrics onto the project item (never creates one). */
export async function setMarketMetrics(id: string, metrics: MarketMetrics): Promise<boolean> {
  const values: Record<string, string | number> = {
    marketRank: metrics.marketRank,
    marketSyncedAt: metrics.syncedAt.toISOString(),
  }
  if (metrics.totalSupply !== undefined) values.totalSupply = metrics.totalSupply.toString()
  if (metrics.volume24h !== undefined) values.volume24h = metrics.volume24h.toString()
  if (metrics.marketPairs !== undefined) values.marketPairs = metrics.marketPairs
  if (metrics.contractInception) {
    values.contractInception = metrics.contractInception.toISOString()
  }
  const names = Object.keys(values)
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: projectKey(id),
        UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(
          names.map((name) => [`:${name}`, values[name]]),
        ),
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}
