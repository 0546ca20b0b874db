import { batchGetItems, itemId } from './batchGet'
import { tableName } from './client'
import { sentToKey } from './keys'
import type { TransactItem } from './session'

// The addresses each wallet has sent to, grouped by how a wallet app shows them (0x4Eb7…82a3):
// what an address-poisoning sender imitates (DECISIONS §9.1, look-alikes of counterparties).
// Written with the trade that sends (recordTrade), read by the deposit indexer.

/** The part of an address a wallet app shows: its first and last four hex digits, lower-cased. */
export function addressLook(address: string): string {
  const hex = address.toLowerCase()
  return `${hex.slice(2, 6)}${hex.slice(-4)}`
}

/** Adds `to` to the addresses `wallet` has sent to (in the sending trade's transaction). */
export function addCounterparty(wallet: string, to: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: sentToKey(wallet, addressLook(to)),
      UpdateExpression: 'SET #type = :type ADD addresses :address',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'SentTo', ':address': new Set([to.toLowerCase()]) },
    },
  }
}

/**
 * For each (wallet, sender), the addresses the wallet has sent to that look like the sender
 * (lower-cased; none when it sent to none): one BatchGetItem per 100 distinct pairs.
 */
export async function findCounterpartiesLike(
  pairs: ReadonlyArray<{ wallet: string; sender: string }>,
): Promise<(pair: { wallet: string; sender: string }) => ReadonlySet<string>> {
  const keyOf = ({ wallet, sender }: { wallet: string; sender: string }) =>
    sentToKey(wallet, addressLook(sender))
  const keys = new Map(pairs.map((pair) => [itemId(keyOf(pair)), keyOf(pair)]))
  const items = await batchGetItems([...keys.values()], { projection: 'pk, sk, addresses' })
  const none = new Set<string>()
  return (pair) => (items.get(itemId(keyOf(pair)))?.addresses as Set<string> | undefined) ?? none
}
