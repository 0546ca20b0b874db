import { getAddress } from 'viem'
import { listProjects, type Project } from '../db/project'

export type TokenSortField = 'network' | 'name' | 'symbol' | 'decimals' | 'createdAt'

export interface ListSwapTokensParameters {
  sort: TokenSortField
  direction: 'ASC' | 'DESC'
  limit: number
  offset: number
}

export interface SwapToken {
  id: string
  name: string
  address: `0x${string}`
  symbol: string
  decimals: number
  network: Project['network']
}

function compare(a: Project, b: Project, field: TokenSortField | 'id'): number {
  if (field === 'decimals') return a.decimals - b.decimals
  const [left, right] = [a[field], b[field]]
  return left < right ? -1 : left > right ? 1 : 0
}

/**
 * A page of the catalog's tokens. The catalog is one Query on its partition (tens of projects),
 * so sorting and paging happen here; ties fall back to the id so pages never overlap.
 */
export async function listSwapTokens({
  sort,
  direction,
  limit,
  offset,
}: ListSwapTokensParameters): Promise<SwapToken[]> {
  const sign = direction === 'ASC' ? 1 : -1
  const projects = await listProjects()
  return projects
    .sort((a, b) => sign * (compare(a, b, sort) || compare(a, b, 'id')))
    .slice(offset, offset + limit)
    .map(({ id, name, address, symbol, decimals, network }) => ({
      id,
      name,
      address: getAddress(address),
      symbol,
      decimals,
      network,
    }))
}
