import { getSecureParameter } from '../aws/secureParameter'
import { loadCoreConfig } from '../config'
import { loadAuthConfig } from '../config/authConfig'

let secret: Promise<Uint8Array> | undefined

async function readSecret(): Promise<Uint8Array> {
  const config = loadAuthConfig()
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret)
  // Deployed stages keep the secret in SSM (SecureString); fetched once per container, on first
  // use rather than at import, so a cold start makes no network call before it needs one.
  const value = await getSecureParameter(String(config.jwtSecretParameter), {
    region: loadCoreConfig().region,
    endpoint: config.ssmEndpoint,
  })
  if (!value || value.length < 32) throw new Error('the JWT secret parameter is missing or short')
  return new TextEncoder().encode(value)
}

/** The HMAC key that signs and verifies every token. */
export function jwtSecret(): Promise<Uint8Array> {
  secret ??= readSecret().catch((error: unknown) => {
    secret = undefined
    throw error
  })
  return secret
}
