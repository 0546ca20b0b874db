import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../networkNames'
import { db, tableName } from './client'
import { nameBasedUuid } from './ids'
import { NETWORK_PARTITION, networkKey } from './keys'

export interface Network {
  id: string
  network: NetworkName
  chainId: number
}

export function networkId(network: NetworkName): string {
  return nameBasedUuid(`network/${network}`)
}

/** All networks the service knows, in name order: one Query. */
export async function queryNetworks(): Promise<Network[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': NETWORK_PARTITION },
    }),
  )
  return Items.map((item) => ({
    id: String(item.id),
    network: item.network as NetworkName,
    chainId: Number(item.chainId),
  }))
}

/** Creates or updates a network; its id is derived from its name, so repeating is harmless. */
export async function putNetwork(network: NetworkName, chainId: number): Promise<Network> {
  const record: Network = { id: networkId(network), network, chainId }
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...networkKey(network), type: 'Network', ...record },
    }),
  )
  return record
}
