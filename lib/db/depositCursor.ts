import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../networkNames'
import { db, tableName } from './client'
import { depositCursorKey } from './keys'
import { isConditionFailed } from './writeConflicts'

// The deposit indexer's place in each chain: the first block it has not yet recorded.

export interface DepositCursorState {
  nextBlock: bigint
  /** The hash of block `nextBlock - 1` when it was indexed: a changed hash is a reorganisation. */
  lastHash?: `0x${string}`
}

export async function getDepositCursorState(
  network: NetworkName,
): Promise<DepositCursorState | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: depositCursorKey(network),
      ConsistentRead: true,
    }),
  )
  if (!Item) return undefined
  return {
    nextBlock: BigInt(Item.nextBlock as number),
    ...(typeof Item.lastHash === 'string' && { lastHash: Item.lastHash as `0x${string}` }),
  }
}

/**
 * Moves the cursor from `from` (undefined: no cursor yet) to `to`, with the hash of block `to - 1`,
 * only if nobody moved it in between (forward, or back after a reorganisation). Returns false
 * when another run (or an operator) got there first.
 */
export async function advanceDepositCursor(
  network: NetworkName,
  { from, to, lastHash }: { from: bigint | undefined; to: bigint; lastHash?: `0x${string}` },
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: depositCursorKey(network),
        UpdateExpression: `SET #type = :type, nextBlock = :to, updatedAt = :now${
          lastHash ? ', lastHash = :lastHash' : ' REMOVE lastHash'
        }`,
        ConditionExpression: from === undefined ? 'attribute_not_exists(pk)' : 'nextBlock = :from',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'DepositCursor',
          ':to': Number(to),
          ':now': new Date().toISOString(),
          ...(from !== undefined && { ':from': Number(from) }),
          ...(lastHash && { ':lastHash': lastHash }),
        },
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}
