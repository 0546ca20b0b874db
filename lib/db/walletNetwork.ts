import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../config'
import { db, tableName } from './client'
import { WALLET_NETWORK_PREFIX, walletKey, walletNetworkKey } from './keys'
import type { Network } from './network'

/** A network attached to a wallet. */
export interface WalletNetwork {
  networkId: string
  network: NetworkName
  attachedAt: Date
}

/**
 * Attaches networks to a wallet: one UpdateItem each, keyed by (wallet, network id), so attaching
 * again is harmless and keeps the first attach time.
 */
export async function attachWalletNetworks(
  wallet: string,
  networks: readonly Network[],
  now = new Date(),
): Promise<void> {
  await Promise.all(
    networks.map((network) =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: walletNetworkKey(wallet, network.id),
          UpdateExpression:
            'SET #type = :type, networkId = :networkId, #network = :network, attachedAt = if_not_exists(attachedAt, :now)',
          ExpressionAttributeNames: { '#type': 'type', '#network': 'network' },
          ExpressionAttributeValues: {
            ':type': 'WalletNetwork',
            ':networkId': network.id,
            ':network': network.network,
            ':now': now.toISOString(),
          },
        }),
      ),
    ),
  )
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
