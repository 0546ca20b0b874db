import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import type { CatalogEntry } from '../../schemas/catalog'
import { db, tableName } from './client'
import { nameBasedUuid } from './ids'
import { projectKey } from './keys'

export function projectId(network: string, address: string): string {
  return nameBasedUuid(`project/${network}/${address.toLowerCase()}`)
}

function labelled(kind: 'tag' | 'category', labels: string[]) {
  return labels.map((label) => ({ id: nameBasedUuid(`${kind}/${label.toLowerCase()}`), label }))
}

/**
 * Creates or updates a project from a catalog entry. Only catalog fields are written, so
 * metrics kept on the same item (watchlist counts, market data) survive a re-import.
 */
export async function upsertProject(entry: CatalogEntry, now = new Date()): Promise<string> {
  const id = projectId(entry.network, entry.address)
  const fields = {
    type: 'Project',
    id,
    network: entry.network,
    address: entry.address,
    name: entry.name,
    symbol: entry.symbol,
    decimals: entry.decimals,
    industry: entry.industry,
    description: entry.description,
    circulatingSupply: entry.circulatingSupply,
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
