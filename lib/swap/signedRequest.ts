import type { Hash } from 'viem'
import type { NetworkName } from '../config'
import { executeSwap, type ExecuteSwapParameters } from './executeSwap'
import { idempotent } from './idempotent'
import { signerFor } from './signer'
import { transferTokens, type TransferTokensParameters } from './transferTokens'

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

/** A swap signed by `key`, run once per Idempotency-Key. */
export async function signedSwap({
  network,
  route,
  key,
  wallet,
  idempotencyKey,
  body,
}: SignedRequestParameters<SwapBody>): Promise<{ txId: Hash }> {
  const account = signerFor(key, wallet)
  return idempotent(
    { wallet: account.address, key: idempotencyKey, request: { route, body } },
    () => executeSwap({ network, account, ...body }),
  )
}

/** A transfer signed by `key`, run once per Idempotency-Key. */
export async function signedTransfer({
  network,
  route,
  key,
  wallet,
  idempotencyKey,
  body,
}: SignedRequestParameters<TransferBody>): Promise<{ txId: Hash }> {
  const account = signerFor(key, wallet)
  return idempotent(
    { wallet: account.address, key: idempotencyKey, request: { route, body } },
    () => transferTokens({ network, account, ...body }),
  )
}
