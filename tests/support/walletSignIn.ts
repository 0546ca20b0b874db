import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect } from 'vitest'
import { handler as getNonce } from '../../functions/auth/getNonce'
import { handler as loginWallet } from '../../functions/auth/loginWallet'
import { httpEvent, invoke } from './httpEvent'
import { uniqueClient } from './uniqueClient'

/**
 * A fresh (or the given) wallet's signature over a nonce from the real nonce handler, issued to
 * the client `sourceIp` (one of its own unless given): a login without `nonce` must come from it.
 */
export async function signedNonce(
  privateKey: Hex = generatePrivateKey(),
  sourceIp: string = uniqueClient(),
) {
  const account = privateKeyToAccount(privateKey)
  const nonce = await invoke(
    getNonce,
    httpEvent({
      route: 'getNonce',
      pathParameters: { address: account.address },
      sourceIp,
    }),
  )
  // A failure shows its answer (a nonce holds no secret).
  expect(nonce.status, JSON.stringify(nonce.body)).toBe(200)
  const { message } = nonce.body.result as { message: string }
  return {
    account,
    address: account.address,
    signature: await account.signMessage({ message }),
    sourceIp,
  }
}

/**
 * Signs a fresh (or the given) wallet in through the real nonce and login handlers, from one
 * client, as a browser does, the login without `nonce` (the README's journey).
 */
export async function signInWithWallet(privateKey: Hex = generatePrivateKey()) {
  const { account, address, signature, sourceIp } = await signedNonce(privateKey)
  const login = await invoke(
    loginWallet,
    httpEvent({ route: 'loginWallet', body: { address, signature }, sourceIp }),
  )
  const { access, refresh } = login.body.result as { access: string; refresh: string }
  return { account, address: account.address, access, refresh }
}
