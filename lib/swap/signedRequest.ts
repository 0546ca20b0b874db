import type { PrivateKeyAccount } from 'viem/accounts'
import type { NetworkName } from '../config'
import { executeSwap, type ExecuteSwapParameters } from './executeSwap'
import { type Sent, sendOnce, type SendOperation } from './idempotent'
import { signerFor } from './signer'
import { transferTokens, type TransferTokensParameters } from '../transfer/transferTokens'

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

export type SwapBody = Omit<ExecuteSwapParameters, 'network' | 'account' | 'now'>
export type TransferBody = Omit<TransferTokensParameters, 'network' | 'account'>

/** An operation signed by `key`, run once per Idempotency-Key of the signing wallet. */
function signedOnce<Body, Plan>(
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

/** A swap signed by `key`, run once per Idempotency-Key. */
export const signedSwap = signedOnce((network, account, body: SwapBody) =>
  executeSwap({ network, account, ...body }),
)

/** A transfer signed by `key`, run once per Idempotency-Key. */
export const signedTransfer = signedOnce((network, account, body: TransferBody) =>
  transferTokens({ network, account, ...body }),
)
