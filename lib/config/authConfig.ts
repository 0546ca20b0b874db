import * as z from '../../schemas/zod'
import { memoize, parseEnv } from './readEnv'

// Sign-in and sessions (DECISIONS §5): the JWT secret (or the SSM parameter holding it), token
// lifetimes and the SIWE domain.

const nonEmpty = z.string().check(z.minLength(1))
const positiveInt = z.pipe(z.coerce.number(), z.int().check(z.positive()))

const authSchema = z
  .object({
    JWT_SECRET: z.optional(z.string().check(z.minLength(32))),
    JWT_SECRET_PARAMETER: z.optional(z.string().check(z.startsWith('/'))),
    // Only for talking to a stand-in; deployed functions use the region's SSM endpoint.
    SSM_ENDPOINT: z.optional(z.url()),
    JWT_ISSUER: z._default(nonEmpty, 'wallet-backend'),
    ACCESS_TOKEN_TTL_SECONDS: z._default(positiveInt, 15 * 60),
    REFRESH_TOKEN_TTL_SECONDS: z._default(positiveInt, 30 * 24 * 60 * 60),
    SIWE_DOMAIN: z._default(nonEmpty, 'localhost:3000'),
    SIWE_URI: z._default(z.url(), 'http://localhost:3000'),
  })
  .check(
    z.refine((env) => env.JWT_SECRET ?? env.JWT_SECRET_PARAMETER, {
      message: 'set JWT_SECRET (local) or JWT_SECRET_PARAMETER (an SSM SecureString name)',
      path: ['JWT_SECRET'],
    }),
  )

export const loadAuthConfig = memoize(() => {
  const env = parseEnv(authSchema)
  return {
    jwtSecret: env.JWT_SECRET,
    jwtSecretParameter: env.JWT_SECRET_PARAMETER,
    ssmEndpoint: env.SSM_ENDPOINT,
    issuer: env.JWT_ISSUER,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    siweDomain: env.SIWE_DOMAIN,
    siweUri: env.SIWE_URI,
  }
})
