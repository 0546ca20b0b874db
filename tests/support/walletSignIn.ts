import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { handler as getNonce } from '../../functions/auth/getNonce'
import { handler as loginWallet } from '../../functions/auth/loginWallet'
import { httpEvent, invoke } from './httpEvent'

/** A fresh (or the given) wallet's signature over a nonce from the real nonce handler. */
export async function signedNonce(privateKey: Hex = generatePrivateKey()) {
  const account = privateKeyToAccount(privateKey)
  const nonce = await invoke(
    getNonce,
    httpEvent({
      route: 'getNonce',
      pathParameters: { address: account.address },
    }),
  )
  const { message } = nonce.body.result as { message: string }
  return { account, address: account.address, signature: await account.signMessage({ message }) }
}

/** Signs a fresh (or the given) wallet in through the real nonce and login handlers. */
export async function signInWithWallet(privateKey: Hex = generatePrivateKey()) {
  const { account, address, signature } = await signedNonce(privateKey)
  const login = await invoke(
    loginWallet,
    httpEvent({ route: 'loginWallet', body: { address, signature } }),
  )
  const { access, refresh } = login.body.result as { access: string; refresh: string }
  return { account, address: account.address, access, refresh }
}
