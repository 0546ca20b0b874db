import { isAddressEqual } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import { accountFromKey } from '../wallet/accountFromKey'
import { parsePrivateKey } from '../wallet/privateKey'

/**
 * The signer of `key` (a `{key}` path segment), held in memory for this request only. It must
 * control `wallet`, the access token's subject: 401004 otherwise. Errors never quote the key.
 */
export function signerFor(key: string, wallet: string): PrivateKeyAccount {
  const account = accountFromKey(parsePrivateKey(key))
  if (!isAddressEqual(account.address, wallet as `0x${string}`)) {
    throw new Unauthorized(
      UNAUTHORIZED.credentialsRejected,
      'the key does not control the signed-in wallet',
    )
  }
  return account
}
