import { type Address, formatUnits, type Hash, type Hex } from 'viem'
import { getTransactionCount } from 'viem/actions'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import type { NetworkName } from '../networkNames'
import { BadRequest, Unprocessable } from '../errors'
import { countMetric } from '../metrics'
import { type Broadcast, sendOnce } from '../send/idempotent'
import { readDecimals } from '../send/readHolding'
import { recordSent, type SentTrade } from '../send/recordSent'
import { broadcastSigned, waitForSuccess } from '../send/sendSigned'
import {
  type CheckedTransaction,
  checkSigned,
  checkSubmitted,
  type DecodedSubmission,
  decodeSubmitted,
} from './checkSubmitted'
import { readKnownTokens } from './knownTokens'
import { checkPermit } from './checkPermit'
import { permitSupportOf } from '../swap/permitSupport'

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

interface SubmitPlan {
  checked: CheckedTransaction[]
  decimalsOf: (token: Address) => number
}

/**
 * The checks, in the order DECISIONS §8.2 asks: signer, chain id and nonces locally
 * (checkSigned); then the catalog (one BatchGetItem, unless every transaction is a plain native
 * transfer) and the targets and swapped tokens against it (checkSubmitted), so nothing reaches the
 * chain before every transaction passed; then one RPC batch of the wallet's pending nonce and the
 * decimals of a moving base token outside the catalog (the wrapped coin, say), capped. Catalog
 * tokens' decimals come from the catalog.
 */
async function planSubmit(decoded: DecodedSubmission): Promise<SubmitPlan> {
  const { network, wallet } = decoded
  checkSigned(decoded)
  const tokens = await readKnownTokens(network, [...decoded.contracts, ...decoded.tokensMoved])
  const checked = checkSubmitted(decoded, tokens)
  const unlisted = decoded.tokensMoved.filter((token) => tokens.decimals(token) === undefined)
  const client = publicClient(network)
  const [nonce, ...decimals] = await Promise.all([
    onChain(network, () => getTransactionCount(client, { address: wallet, blockTag: 'pending' })),
    ...unlisted.map((token) => readDecimals(network, token)),
  ])
  const first = checked[0]?.nonce
  if (first !== nonce) {
    throw new Unprocessable(
      `transaction 1 has nonce ${first}, but the wallet's next nonce on ${network} is ${nonce}: prepare again; nothing was sent`,
    )
  }
  await checkSubmittedPermits(network, wallet, checked)
  const read = new Map(unlisted.map((token, index) => [token, decimals[index]]))
  const decimalsOf = (token: Address): number =>
    tokens.decimals(token) ?? read.get(token.toLowerCase() as Address) ?? 18
  return { checked, decimalsOf }
}

/**
 * Every swap's selfPermit verified before anything is sent (checkPermit, DECISIONS §10.2): the
 * wallet's signature over the network's chain id, the router as spender, exactly the swap's input
 * (the selfPermit's value must be it too), the current nonce and a deadline not past (by the
 * clock) and short. Any other is 400: nothing was sent.
 */
async function checkSubmittedPermits(
  network: NetworkName,
  wallet: Address,
  checked: readonly CheckedTransaction[],
): Promise<void> {
  const now = BigInt(Math.floor(Date.now() / 1000))
  for (const [index, transaction] of checked.entries()) {
    const { permit } = transaction
    if (!permit) continue
    const path = `body.transactions.${index}`
    if (permit.value !== transaction.amount) {
      throw new BadRequest('the permit is not valid; nothing was sent', [
        {
          path,
          message: `permits ${permit.value} base units, but the swap spends ${transaction.amount}: a permit is for the swap's exact amount`,
        },
      ])
    }
    await checkPermit({
      network,
      owner: wallet,
      token: permit.token,
      spender: transaction.counterparty,
      value: transaction.amount,
      deadline: permit.deadline,
      signature: permit.signature,
      now,
      path,
      lookup: permitSupportOf,
    })
  }
}

/**
 * Broadcasts transactions the wallet signed, once each has passed checkSubmitted and the first
 * nonce is the wallet's next: in order, each recorded as a `pending` trade as the `{key}` routes
 * record theirs (N transactions, N trades), an approval mined before the next is sent. Once per
 * Idempotency-Key (sendOnce): the claim and the reads leave together, the
 * last trade is recorded with the key's completion. A failure before a broadcast frees the key
 * like the `{key}` routes do, and resubmitting the same bytes cannot send twice: the nonces are
 * signed in.
 */
export async function submitSigned(parameters: SubmitSignedParameters): Promise<Submitted> {
  const { network, route, wallet, idempotencyKey, transactions } = parameters
  // Local (400 for what is not a signed transaction), before the claim and the reads leave.
  const decoded = await decodeSubmitted({ network, wallet, transactions })
  const sent = await sendOnce(
    { wallet, key: idempotencyKey, request: { route, body: { transactions } } },
    {
      plan: () => planSubmit(decoded),
      async send({ checked, decimalsOf }): Promise<Broadcast> {
        const txIds: Hash[] = []
        let trade: SentTrade | undefined
        for (const [index, transaction] of checked.entries()) {
          const hash = await broadcastSigned(network, transaction.kind, transaction.raw)
          txIds.push(hash)
          if (transaction.kind === 'swap') countMetric('Swap', { Network: network })
          trade = {
            hash,
            type: transaction.kind,
            network,
            wallet,
            from: wallet,
            to: transaction.counterparty,
            amount: formatUnits(transaction.amount, decimalsOf(transaction.token)),
            token: transaction.token,
            isNativeTransfer: transaction.isNativeTransfer,
          }
          if (index === checked.length - 1) break
          // Each one out is a trade, recorded before the next is sent (in order, and none lost
          // if a later one fails); the last is recorded by sendOnce, with the key's completion.
          await recordSent(trade)
          // The next transaction (the swap, or the approval after a reset) fails until it is
          // mined.
          if (transaction.kind === 'approval') await waitForSuccess(network, 'approval', hash)
        }
        if (!trade) throw new Error('a submit broadcasts at least one transaction')
        return { txId: txIds[txIds.length - 1] as Hash, txIds, trade }
      },
    },
  )
  return { txId: sent.txId, txIds: sent.txIds ?? [sent.txId] }
}
