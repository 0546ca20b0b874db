import type { Address } from 'viem'
import type { NetworkName } from '../../lib/networkNames'
import { upsertProject } from '../../lib/db/project'

/**
 * Lists a token in the catalog of the table in use (only catalog tokens' transfers are deposits,
 * DECISIONS §8.2): one UpdateItem, none of the catalog import's chain reads.
 */
export async function listInCatalog(
  network: NetworkName,
  { address, decimals, symbol = 'TEST' }: { address: Address; decimals: number; symbol?: string },
): Promise<void> {
  await upsertProject({
    network,
    address,
    name: `Test ${symbol}`,
    symbol,
    decimals,
    industry: 'Testing',
    description: 'A token a test listed.',
    social: {},
    tags: [],
    categories: [],
  })
}
