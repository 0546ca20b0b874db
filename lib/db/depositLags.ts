import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../networkNames'
import { db, tableName } from './client'
import { depositLagKey, depositLagPartition } from './keys'
import { queryAll } from './queryAll'

// Wallets whose deposits the indexer's cursor has passed without recording them all: a wallet
// that got more deposits in a run than its fair share (DECISIONS §9.1). Each keeps where its
// unrecorded deposits start, a block and a log index, and the end of the range they lie in; the
// next runs read that wallet's token transfers there alone and go on from exactly there.

export interface DepositLag {
  wallet: `0x${string}`
  /** The first transfer to the wallet not yet handled: its block and log index. */
  fromBlock: bigint
  fromLog: number
  /** Where the range ends (exclusive): the cursor when the lag was last extended. */
  toBlock: bigint
  /** When a run last took it (ISO): runs take the least recently served first. */
  servedAt: string
}

/** Every lag of the network, least recently served first: one Query (paged). */
export async function listDepositLags(network: NetworkName): Promise<DepositLag[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': depositLagPartition(network) },
    ConsistentRead: true,
  })
  const lags = items.map((item) => ({
    wallet: item.wallet as `0x${string}`,
    fromBlock: BigInt(item.fromBlock as number),
    fromLog: Number(item.fromLog),
    toBlock: BigInt(item.toBlock as number),
    servedAt: String(item.servedAt),
  }))
  return lags.sort((a, b) => a.servedAt.localeCompare(b.servedAt))
}

/** The condition that the lag is as `read` left it (or absent when nothing was read). */
function asRead(read: DepositLag | undefined) {
  if (!read) return { ConditionExpression: 'attribute_not_exists(pk)' }
  return {
    ConditionExpression: 'fromBlock = :readBlock AND fromLog = :readLog AND toBlock = :readTo',
    ExpressionAttributeValues: {
      ':readBlock': Number(read.fromBlock),
      ':readLog': read.fromLog,
      ':readTo': Number(read.toBlock),
    },
  }
}

/**
 * Writes `lag` over the one the run read (`read`; undefined: there was none), only if no other
 * run changed it meanwhile (ConditionalCheckFailedException otherwise: the run fails and its
 * range is scanned again).
 */
export async function saveDepositLag(
  network: NetworkName,
  lag: DepositLag,
  read: DepositLag | undefined,
): Promise<void> {
  const condition = asRead(read)
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...depositLagKey(network, lag.wallet),
        type: 'DepositLag',
        wallet: lag.wallet,
        fromBlock: Number(lag.fromBlock),
        fromLog: lag.fromLog,
        toBlock: Number(lag.toBlock),
        servedAt: lag.servedAt,
      },
      ...condition,
    }),
  )
}

/** Removes a lag whose deposits are all handled, if it is still as the run read it. */
export async function deleteDepositLag(network: NetworkName, read: DepositLag): Promise<void> {
  await db().send(
    new DeleteCommand({
      TableName: tableName(),
      Key: depositLagKey(network, read.wallet),
      ...asRead(read),
    }),
  )
}
