import type { NetworkName } from '../config'
import { tableName } from './client'
import { networkKey, walletNetworkKey } from './keys'
import { networkId } from './network'
import type { TransactItem } from './session'
import { sessionConditionCheck } from './sessionCondition'
import type { SessionCondition } from './sessionItem'
import { transact } from './writeConflicts'

// The write of lib/db/walletNetwork.ts's items, apart from their read: its transaction checks
// the session and the networks, and only the function that attaches should be granted that.

/**
 * Attaches networks to a wallet in one transaction: per network, a check that the service knows
 * it (its item exists) and an upsert keyed by (wallet, network id), so attaching again is
 * harmless and keeps the first attach time; and the caller's session check. Returns the networks
 * the service does not know (then nothing was attached); 401003 through `session.ended()`.
 */
export async function attachWalletNetworks(
  wallet: string,
  networks: readonly NetworkName[],
  session: SessionCondition,
  now = new Date(),
): Promise<NetworkName[]> {
  const items = networks.flatMap((network): TransactItem[] => [
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
  ])
  const codes = await transact([...items, sessionConditionCheck(session, now)])
  if (codes?.[items.length] === 'ConditionalCheckFailed') session.ended()
  const unknown = networks.filter((_, index) => codes?.[2 * index] === 'ConditionalCheckFailed')
  if (codes && unknown.length === 0) {
    throw new Error(`attach transaction cancelled: ${codes.join(', ')}`)
  }
  if (unknown.length === 0) session.confirm()
  return unknown
}
