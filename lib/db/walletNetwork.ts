import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../networkNames'
import { db, tableName } from './client'
import { networkKey, WALLET_NETWORK_PREFIX, walletKey, walletNetworkKey } from './keys'
import { networkId } from './network'
import type { TransactItem } from './session'
import { transact } from './writeConflicts'

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

/**
 * Attaches networks to a wallet in one transaction: per network, a check that the service knows
 * it (its item exists) and an upsert keyed by (wallet, network id), so attaching again is
 * harmless and keeps the first attach time. Returns the networks the service does not know (then
 * nothing was attached).
 */
export async function attachWalletNetworks(
  wallet: string,
  networks: readonly NetworkName[],
  now = new Date(),
): Promise<NetworkName[]> {
  const codes = await transact(
    networks.flatMap((network): TransactItem[] => [
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: networkKey(network),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: walletNetworkKey(wallet, networkId(network)),
          UpdateExpression:
            'SET #type = :type, networkId = :networkId, #network = :network, attachedAt = if_not_exists(attachedAt, :now)',
          ExpressionAttributeNames: { '#type': 'type', '#network': 'network' },
          ExpressionAttributeValues: {
            ':type': 'WalletNetwork',
            ':networkId': networkId(network),
            ':network': network,
            ':now': now.toISOString(),
          },
        },
      },
    ]),
  )
  const unknown = networks.filter((_, index) => codes?.[2 * index] === 'ConditionalCheckFailed')
  if (codes && unknown.length === 0) {
    throw new Error(`attach transaction cancelled: ${codes.join(', ')}`)
  }
  return unknown
}
