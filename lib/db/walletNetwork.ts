import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../config'
import { db, tableName } from './client'
import { WALLET_NETWORK_PREFIX, walletKey } from './keys'

/** A network attached to a wallet. */
export interface WalletNetwork {
  networkId: string
  network: NetworkName
  attachedAt: Date
}

/** The networks attached to a wallet, by name: one Query on its partition. */
export async function listWalletNetworks(wallet: string): Promise<WalletNetwork[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': walletKey(wallet).pk, ':prefix': WALLET_NETWORK_PREFIX },
    }),
  )
  return Items.map((item) => ({
    networkId: String(item.networkId),
    network: item.network as NetworkName,
    attachedAt: new Date(String(item.attachedAt)),
  })).sort((a, b) => a.network.localeCompare(b.network))
}
