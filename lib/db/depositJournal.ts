import type { NetworkName } from '../config'
import { tableName } from './client'
import {
  depositJournalBlockPrefix,
  depositJournalPartition,
  type TableKey,
  tradeCounterKeys,
  tradeKey,
} from './keys'
import { queryAll } from './queryAll'
import { transact } from './writeConflicts'

// The deposits the indexer recorded, by block: what a reorganisation may have orphaned.

export interface JournalledDeposit {
  key: TableKey
  blockNumber: bigint
  blockHash: `0x${string}`
  wallet: `0x${string}`
  tradeId: string
  marker: TableKey
}

/** The deposits recorded from `fromBlock` on; one Query (paged) over the network's journal. */
export async function listJournalledDeposits(
  network: NetworkName,
  fromBlock: bigint,
): Promise<JournalledDeposit[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk >= :from',
    ExpressionAttributeValues: {
      ':pk': depositJournalPartition(network),
      ':from': depositJournalBlockPrefix(fromBlock),
    },
    ConsistentRead: true,
  })
  return items.map((item) => ({
    key: { pk: String(item.pk), sk: String(item.sk) },
    blockNumber: BigInt(String(item.sk).split('#')[1] ?? '0'),
    blockHash: item.blockHash as `0x${string}`,
    wallet: item.wallet as `0x${string}`,
    tradeId: String(item.tradeId),
    marker: { pk: String(item.markerPk), sk: String(item.markerSk) },
  }))
}

/**
 * Removes an orphaned deposit as if it had never been recorded: the trade, its marker (so the
 * same transfer, re-included elsewhere, is recorded again once) and its journal entry go, and the
 * wallet's trade counters step back, in one transaction.
 */
export async function removeJournalledDeposit(deposit: JournalledDeposit): Promise<void> {
  const counters = tradeCounterKeys(deposit.wallet)
  const stepBack = (Key: TableKey) => ({
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'ADD tradeCount :minusOne',
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  })
  const failed = await transact([
    {
      Delete: {
        TableName: tableName(),
        Key: tradeKey(deposit.wallet, deposit.tradeId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    { Delete: { TableName: tableName(), Key: deposit.marker } },
    { Delete: { TableName: tableName(), Key: deposit.key } },
    stepBack(counters.head),
    stepBack(counters.tail),
  ])
  // Already removed by an earlier run: only the journal entry may be left.
  if (failed) await transact([{ Delete: { TableName: tableName(), Key: deposit.key } }])
}
