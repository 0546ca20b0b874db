import type { Client, Hash } from 'viem'
import { parseGwei } from 'viem'
import type { LocalAccount } from 'viem/accounts'
import { sendRawTransaction, waitForTransactionReceipt } from 'viem/actions'
import type { PlannedTransaction } from './deployV3'

// Fixed limits replace eth_estimateGas, which cannot run against contracts not yet mined.
// The largest real use is Router02's deployment (~4.8M gas); all stay under the EIP-7825 cap.
const GAS_LIMIT = 8_000_000n
const PRIORITY_FEE = parseGwei('1')

/** Signs with consecutive nonces, sends in order without awaiting receipts, then checks them all. */
export async function sendInNonceOrder(
  client: Client,
  {
    account,
    chainId,
    firstNonce,
    baseFee,
    transactions,
  }: {
    account: LocalAccount
    chainId: number
    firstNonce: number
    baseFee: bigint
    transactions: PlannedTransaction[]
  },
): Promise<void> {
  const signed = await Promise.all(
    transactions.map(({ to, data, value }, index) =>
      account.signTransaction({
        chainId,
        type: 'eip1559',
        nonce: firstNonce + index,
        gas: GAS_LIMIT,
        // Twice the base fee leaves room for it to rise while the batch mines.
        maxFeePerGas: baseFee * 2n + PRIORITY_FEE,
        maxPriorityFeePerGas: PRIORITY_FEE,
        to,
        data,
        value,
      }),
    ),
  )
  const hashes: Hash[] = []
  for (const serializedTransaction of signed) {
    hashes.push(await sendRawTransaction(client, { serializedTransaction }))
  }
  const receipts = await Promise.all(
    hashes.map((hash) => waitForTransactionReceipt(client, { hash, checkReplacement: false })),
  )
  receipts.forEach((receipt, index) => {
    if (receipt.status !== 'success') {
      const label = transactions[index]?.label ?? 'transaction'
      throw new Error(`${label} reverted (${receipt.transactionHash})`)
    }
  })
}
