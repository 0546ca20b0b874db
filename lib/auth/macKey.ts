import { createHmac } from 'node:crypto'
import { jwtSecret } from './jwtSecret'

/** What a MAC of the service vouches for: a sign-in nonce, or a device an account signed in on. */
export type MacPurpose = 'nonce' | 'device'

const keys = new Map<MacPurpose, Promise<Buffer>>()

/**
 * The key of one kind of MAC, derived from the service's signing secret (HMAC-SHA256 as the key
 * derivation), so a nonce's or a device token's MAC can never pass for a JWT's or each other's.
 */
export function macKey(purpose: MacPurpose): Promise<Buffer> {
  let key = keys.get(purpose)
  if (!key) {
    key = jwtSecret().then((secret) =>
      createHmac('sha256', secret).update(`wallet-backend/${purpose}/v1`).digest(),
    )
    // A failed read (SSM) is tried again by the next caller, as jwtSecret does.
    key.catch(() => keys.delete(purpose))
    keys.set(purpose, key)
  }
  return key
}
