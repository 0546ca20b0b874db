import { randomUUID } from 'node:crypto'
import type { Address } from 'viem'
import { chainOf } from '../../lib/chain/clients'
import { loadChainConfig } from '../../lib/config'
import { type AnvilNode, startAnvil } from '../../lib/local/anvil'
import { DEVNET_CHAIN_IDS } from '../../lib/local/deployDex'
import { findFreePort } from '../../lib/local/findFreePort'
import { createTable } from '../../lib/local/localStack'
import { ownDevnetClient } from './faultEngines'

export interface IndexerEngines {
  /** The ethereum devnet's client, with the deployer as its first account. */
  client: ReturnType<typeof ownDevnetClient>
  deployer: Address
  stop(): Promise<void>
}

/**
 * Both devnets and a table of a test file's own, for files that run the scheduled indexer (it
 * indexes every served network) and need its cursor to be theirs alone. Sets the environment
 * before any module reads its configuration: the modules build their clients on first use. Only
 * these two are served (the suite's stack serves every network of the table).
 */
export async function startIndexerEngines(tablePrefix: string): Promise<IndexerEngines> {
  const table = `${tablePrefix}-${randomUUID()}`
  const [ethereum, altchain] = await Promise.all([
    findFreePort().then((port) => startAnvil({ port, chainId: DEVNET_CHAIN_IDS.ethereum })),
    findFreePort().then((port) => startAnvil({ port, chainId: DEVNET_CHAIN_IDS.altchain })),
    createTable(String(process.env.DYNAMODB_ENDPOINT), table),
  ])
  const anvils: AnvilNode[] = [ethereum, altchain]
  Object.assign(process.env, {
    TABLE_NAME: table,
    NETWORKS: 'ethereum,altchain',
    ETHEREUM_RPC_URL: ethereum.rpcUrl,
    ALTCHAIN_RPC_URL: altchain.rpcUrl,
  })
  const client = ownDevnetClient(ethereum.rpcUrl, chainOf(loadChainConfig('ethereum')))
  const [deployer] = (await client.getAddresses()) as [Address]
  return {
    client,
    deployer,
    stop: async () => void (await Promise.all(anvils.map((a) => a.stop()))),
  }
}
