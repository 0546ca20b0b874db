import type { NetworkName } from '../networkNames'
import { tableName } from './client'
import {
  depositJournalBlockPrefix,
  depositJournalKey,
  depositJournalPartition,
  type DepositPlace,
  type TableKey,
  tradeCounterKeys,
  tradeKey,
} from './keys'
import { queryAll } from './queryAll'
import type { TransactItem } from './session'
import { getTrade } from './trade'
import { deletePageEntry } from './tradePageEntry'
import { transact } from './writeConflicts'

// The deposits the indexer recorded, by block: what a reorganisation may have orphaned. Each is
// journalled in the transaction that records it (recordDeposits).

export interface JournalledDeposit {
  key: TableKey
  blockNumber: bigint
  blockHash: `0x${string}`
  wallet: `0x${string}`
  tradeId: string
  marker: TableKey
}

/** The journal entry of a deposit being recorded: its block, its trade and its marker. */
export function putJournalEntry(
  network: NetworkName,
  deposit: { hash: string; place: DepositPlace; blockNumber: bigint; blockHash: `0x${string}` },
  recorded: { wallet: string; tradeId: string; marker: TableKey },
): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...depositJournalKey(network, deposit.blockNumber, deposit.hash, deposit.place),
        type: 'DepositJournal',
        blockHash: deposit.blockHash,
        wallet: recorded.wallet,
        tradeId: recorded.tradeId,
        markerPk: recorded.marker.pk,
        markerSk: recorded.marker.sk,
      },
    },
  }
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
 * Removes an orphaned deposit as if it had never been recorded: the trade and its page entry, its
 * marker (so the same transfer, re-included elsewhere, is recorded again once) and its journal
 * entry go, and the wallet's trade counters step back, in one transaction. The trade's position
 * becomes a hole the pages step over (lib/db/tradeTail.ts, positionOf).
 */
export async function removeJournalledDeposit(deposit: JournalledDeposit): Promise<void> {
  const counters = tradeCounterKeys(deposit.wallet)
  // Its position: removals are rare (a reorganisation past the confirmation depth), one read.
  const trade = await getTrade(deposit.wallet, deposit.tradeId)
  const stepBack = (Key: TableKey, hole?: number) => ({
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: `ADD tradeCount :minusOne${hole === undefined ? '' : ', holes :hole'}`,
      ExpressionAttributeValues: {
        ':minusOne': -1,
        ...(hole !== undefined && { ':hole': new Set([hole]) }),
      },
    },
  })
  const failed = trade
    ? await transact([
        {
          Delete: {
            TableName: tableName(),
            Key: tradeKey(deposit.wallet, deposit.tradeId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        deletePageEntry(deposit.wallet, trade.position),
        { Delete: { TableName: tableName(), Key: deposit.marker } },
        { Delete: { TableName: tableName(), Key: deposit.key } },
        stepBack(counters.head),
        stepBack(counters.tail, trade.position),
      ])
    : ['gone']
  // Already removed by an earlier run: only the journal entry may be left.
  if (failed) await transact([{ Delete: { TableName: tableName(), Key: deposit.key } }])
}
