import { getTransactionCount, sendRawTransaction, waitForTransactionReceipt } from 'viem/actions'
import { WaitForTransactionReceiptTimeoutError, type Address, type Hash, type Hex } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { admitted } from '../admission'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { ChainUnavailable, Conflict, Unprocessable } from '../errors'
import type { Fees } from './sendContext'
import { beforeBroadcast, translateSendError } from './sendError'
import { countMetric } from '../metrics'

export interface SendSignedParameters {
  network: NetworkName
  action: string
  account: PrivateKeyAccount
  nonce: number
  fees: Fees
  gas: bigint
  to: Address
  data?: Hex
  value?: bigint
}

const NONCE_ATTEMPTS = 3

/**
 * Signs an EIP-1559 transaction in memory and broadcasts it: one RPC call. When another
 * transaction of the wallet took the nonce meanwhile (two requests at once; two identical ones
 * even sign the same bytes, which the node calls "already known"), the nonce is read again and
 * the transaction re-signed, up to three times; then it is a 409. viem never retries a send, so
 * "already known" is never our own transaction coming back.
 */
export async function sendSigned(parameters: SendSignedParameters): Promise<Hash> {
  const { network, action, account, fees, gas, to, data, value } = parameters
  const client = publicClient(network)
  const chainId = loadChainConfig(network).chainId
  let nonce = parameters.nonce
  for (let attempt = 1; ; attempt += 1) {
    const serializedTransaction = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce,
      gas,
      ...fees,
      to,
      data,
      value,
    })
    try {
      // Nothing leaves before the route's session is admitted (lib/admission.ts).
      await admitted()
      const hash = await sendRawTransaction(client, { serializedTransaction })
      countMetric('Broadcast', { Network: network })
      return hash
    } catch (error) {
      const translated = translateSendError(error, network, action)
      if (!(translated instanceof Conflict) || attempt === NONCE_ATTEMPTS) throw translated
      nonce = await onChain(network, () =>
        getTransactionCount(client, { address: account.address, blockTag: 'pending' }),
      )
    }
  }
}

/**
 * Broadcasts a transaction the client signed (lib/clientSigning): one RPC call, what the node
 * refuses translated as for our own (422, 409, 502). No retry: the bytes cannot be re-signed here.
 */
export async function broadcastSigned(
  network: NetworkName,
  action: string,
  serializedTransaction: Hex,
): Promise<Hash> {
  const client = publicClient(network)
  // Nothing leaves before the route's session is admitted (lib/admission.ts).
  await admitted()
  const hash = await beforeBroadcast(network, action, () =>
    sendRawTransaction(client, { serializedTransaction }),
  )
  countMetric('Broadcast', { Network: network })
  return hash
}

const RECEIPT_TIMEOUT_MS = 20_000
const RECEIPT_POLL_MS = 250

/** Waits for a transaction to be mined and succeed: a revert is a 422, a long wait a 502. */
export async function waitForSuccess(network: NetworkName, action: string, hash: Hash) {
  const client = publicClient(network)
  // The timeout is told apart inside the call: once `onChain` has translated it, it is a bare 502.
  const receipt = await onChain(network, () =>
    waitForTransactionReceipt(client, {
      hash,
      pollingInterval: RECEIPT_POLL_MS,
      timeout: RECEIPT_TIMEOUT_MS,
    }).catch((error: unknown) => {
      if (error instanceof WaitForTransactionReceiptTimeoutError) {
        throw new ChainUnavailable(
          network,
          `the ${action} ${hash} was not mined on ${network} within ${RECEIPT_TIMEOUT_MS / 1000} s; retry once it is`,
        )
      }
      throw error
    }),
  )
  if (receipt.status !== 'success') {
    throw new Unprocessable(`the ${action} ${hash} reverted on ${network}`)
  }
  return receipt
}
