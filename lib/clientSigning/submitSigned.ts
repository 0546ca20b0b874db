import { type Address, formatUnits, type Hash, type Hex } from 'viem'
import { getTransactionCount } from 'viem/actions'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import type { NetworkName } from '../config'
import { Unprocessable } from '../errors'
import { countMetric } from '../metrics'
import { idempotent } from '../swap/idempotent'
import { readDecimals } from '../swap/readHolding'
import { recordSent } from '../swap/recordSent'
import { broadcastSigned, waitForSuccess } from '../swap/sendSigned'
import { type CheckedTransaction, checkSubmitted } from './checkSubmitted'

export interface SubmitSignedParameters {
  network: NetworkName
  /** The route's template, so one Idempotency-Key cannot stand for two kinds of request. */
  route: string
  /** The access token's wallet: every transaction must be its own. */
  wallet: Address
  idempotencyKey: string | undefined
  transactions: Hex[]
}

/** What a submit route hands over: the network and route are its own. */
export type SubmitInput = Omit<SubmitSignedParameters, 'network' | 'route'>

export interface Submitted {
  /** The last transaction: the swap or the transfer, as the `{key}` routes answer. */
  txId: Hash
  /** Every transaction, in the order sent. */
  txIds: Hash[]
}

/** The wallet's pending nonce and the decimals of each token that moves: one batch. */
async function readBeforeBroadcast(
  network: NetworkName,
  wallet: Address,
  checked: readonly CheckedTransaction[],
) {
  const client = publicClient(network)
  const tokens = [...new Set(checked.map((transaction) => transaction.token.toLowerCase()))]
  const [nonce, ...decimals] = await Promise.all([
    onChain(network, () => getTransactionCount(client, { address: wallet, blockTag: 'pending' })),
    ...tokens.map((token) => readDecimals(network, token as Address)),
  ])
  const decimalsOf = new Map(tokens.map((token, index) => [token, decimals[index] ?? 18]))
  return { nonce, decimalsOf: (token: Address) => decimalsOf.get(token.toLowerCase()) ?? 18 }
}

/**
 * Broadcasts transactions the wallet signed, once each has passed checkSubmitted and the first
 * nonce is the wallet's next: in order, each recorded as a `pending` trade as the `{key}` routes
 * record theirs, an approval mined before the next is sent. Once per Idempotency-Key: a retry
 * answers the first hashes and sends nothing. A failure after a broadcast frees the key like the
 * `{key}` routes do, and resubmitting the same bytes cannot send twice: the nonces are signed in.
 */
export async function submitSigned(parameters: SubmitSignedParameters): Promise<Submitted> {
  const { network, route, wallet, idempotencyKey, transactions } = parameters
  const checked = await checkSubmitted({ network, wallet, transactions })
  const sent = await idempotent(
    { wallet, key: idempotencyKey, request: { route, body: { transactions } } },
    async () => {
      const { nonce, decimalsOf } = await readBeforeBroadcast(network, wallet, checked)
      const first = checked[0]?.nonce
      if (first !== nonce) {
        throw new Unprocessable(
          `transaction 1 has nonce ${first}, but the wallet's next nonce on ${network} is ${nonce}: prepare again; nothing was sent`,
        )
      }
      const txIds: Hash[] = []
      for (const [index, transaction] of checked.entries()) {
        const hash = await broadcastSigned(network, transaction.kind, transaction.raw)
        txIds.push(hash)
        if (transaction.kind === 'swap') countMetric('Swap', { Network: network })
        await recordSent({
          hash,
          type: transaction.kind,
          network,
          wallet,
          from: wallet,
          to: transaction.counterparty,
          amount: formatUnits(transaction.amount, decimalsOf(transaction.token)),
          token: transaction.token,
          isNativeTransfer: transaction.isNativeTransfer,
        })
        // The next transaction (the swap, or the approval after a reset) fails until it is mined.
        if (transaction.kind === 'approval' && index < checked.length - 1) {
          await waitForSuccess(network, 'approval', hash)
        }
      }
      return { txId: txIds[txIds.length - 1] as Hash, txIds }
    },
  )
  return { txId: sent.txId, txIds: sent.txIds ?? [sent.txId] }
}
