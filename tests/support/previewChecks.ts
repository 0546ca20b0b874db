import { type Address, getAddress, type Hash, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { NATIVE_COIN } from '../../lib/constants'
import type { NetworkName } from '../../lib/networkNames'
import type { Preview } from '../../lib/preview/previewSequence'
import { balanceOf, devnet } from './devnetAccounts'
import { type PreparedTransaction, signAll } from './signPrepared'

// Judging a preview (DECISIONS §10.2) by the chain: the prepared transactions mined, and the
// balances read before the first and after the last.

export async function mine(
  network: NetworkName,
  privateKey: Hex,
  transactions: PreparedTransaction[],
) {
  const client = devnet(network)
  const receipts = []
  for (const raw of await signAll(privateKeyToAccount(privateKey), transactions)) {
    const hash: Hash = await client.sendRawTransaction({ serializedTransaction: raw })
    receipts.push(await client.waitForTransactionReceipt({ hash }))
  }
  return receipts
}

/** Whether the sequence was mined alone, one transaction a block, right after the preview's block. */
export async function minedAlone(network: NetworkName, preview: Preview, blocks: bigint[]) {
  const first = BigInt(preview.blockNumber) + 1n
  for (const [index, number] of blocks.entries()) {
    if (number !== first + BigInt(index)) return false
    const block = await devnet(network).getBlock({ blockNumber: number })
    if (block.transactions.length !== 1) return false
  }
  return true
}

export const keyOf = (address: Address, token: Address) =>
  `${getAddress(address)}:${getAddress(token)}`

/** The balances measured: before the first transaction and after the last, the fee set apart. */
export async function measuredChanges(
  network: NetworkName,
  owner: Address,
  pairs: [Address, Address][],
  receipts: Awaited<ReturnType<typeof mine>>,
) {
  const [first, last] = [receipts[0], receipts.at(-1)]
  if (!first || !last) throw new Error('nothing mined')
  const fee = receipts.reduce(
    (sum, receipt) => sum + receipt.gasUsed * receipt.effectiveGasPrice,
    0n,
  )
  const changes = new Map<string, bigint>()
  for (const [address, token] of pairs) {
    const before = await balanceOf(network, address, token, first.blockNumber - 1n)
    const after = await balanceOf(network, address, token, last.blockNumber)
    const paid = keyOf(address, token) === keyOf(owner, NATIVE_COIN) ? fee : 0n
    const change = after - before + paid
    if (change !== 0n) changes.set(keyOf(address, token), change)
  }
  return changes
}

export function previewChanges(preview: Preview) {
  return new Map(
    preview.balanceChanges.map((change) => [
      keyOf(change.address, change.token),
      BigInt(change.change),
    ]),
  )
}
