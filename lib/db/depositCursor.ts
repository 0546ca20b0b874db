import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../config'
import { db, tableName } from './client'
import { depositCursorKey } from './keys'
import { isConditionFailed } from './writeConflicts'

// The deposit indexer's place in each chain: the first block it has not yet recorded.

export async function getDepositCursor(network: NetworkName): Promise<bigint | undefined> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: depositCursorKey(network),
      ConsistentRead: true,
    }),
  )
  return Item ? BigInt(Item.nextBlock as number) : undefined
}

/**
 * Moves the cursor from `from` (undefined: no cursor yet) to `to`, only if nobody moved it in
 * between. Returns false when another run (or an operator) got there first.
 */
export async function advanceDepositCursor(
  network: NetworkName,
  { from, to }: { from: bigint | undefined; to: bigint },
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: depositCursorKey(network),
        UpdateExpression: 'SET #type = :type, nextBlock = :to, updatedAt = :now',
        ConditionExpression: from === undefined ? 'attribute_not_exists(pk)' : 'nextBlock = :from',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'DepositCursor',
          ':to': Number(to),
          ':now': new Date().toISOString(),
          ...(from !== undefined && { ':from': Number(from) }),
        },
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}

/** Puts the cursor at `nextBlock` whatever it was: re-indexes from there (operators, tests). */
export async function setDepositCursor(network: NetworkName, nextBlock: bigint): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...depositCursorKey(network),
        type: 'DepositCursor',
        nextBlock: Number(nextBlock),
        updatedAt: new Date().toISOString(),
      },
    }),
  )
}
