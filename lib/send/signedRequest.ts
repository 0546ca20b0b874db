import type { PrivateKeyAccount } from 'viem/accounts'
import type { NetworkName } from '../networkNames'
import { type Sent, sendOnce, type SendOperation } from './idempotent'
import { signerFor } from './signer'

export interface SignedRequestParameters<Body> {
  network: NetworkName
  /** The route's template, so one Idempotency-Key cannot stand for two kinds of request. */
  route: string
  /** The `{key}` path segment: used here to sign, then dropped. */
  key: string
  /** The access token's wallet; the key must control it (401004). */
  wallet: string
  idempotencyKey: string | undefined
  body: Body
}

/** What a route hands over: the network and route are its own. */
export type SignedInput<Body> = Omit<SignedRequestParameters<Body>, 'network' | 'route'>

/**
 * An operation signed by `key` (a swap: lib/swap/signedSwap.ts, a transfer:
 * lib/transfer/signedTransfer.ts), run once per Idempotency-Key of the signing wallet.
 */
export function signedOnce<Body, Plan>(
  operation: (network: NetworkName, account: PrivateKeyAccount, body: Body) => SendOperation<Plan>,
) {
  return (parameters: SignedRequestParameters<Body>): Promise<Sent> => {
    const { network, route, key, wallet, idempotencyKey, body } = parameters
    const account = signerFor(key, wallet)
    return sendOnce(
      { wallet: account.address, key: idempotencyKey, request: { route, body } },
      operation(network, account, body),
    )
  }
}
