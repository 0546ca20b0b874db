import { UNAUTHORIZED_DESCRIPTIONS } from '../errors'
import { TAG_DESCRIPTIONS } from './tagDescriptions'

const SECURITY_SCHEMES = {
  walletAccess: 'Access token of a wallet session (`aud: wallet`, `typ: access`), 15 minutes.',
  walletRefresh: 'Refresh token of a wallet session (`aud: wallet`, `typ: refresh`), 30 days.',
  accountAccess: 'Access token of an account session (`aud: account`, `typ: access`), 15 minutes.',
  accountRefresh: 'Refresh token of an account session (`aud: account`, `typ: refresh`), 30 days.',
}

// What lib/auth/tokens.ts does, in the terms of RFC 8725 (JWT Best Current Practices).
const JWT_PRACTICES =
  'A JWS following RFC8725: one algorithm (HS256) pinned on verification, so `none` or any ' +
  'other is refused (§3.1); issuer, subject, audience and expiry verified, every claim required ' +
  '(§3.8, §3.9); access and refresh tokens, and wallet and account tokens, told apart by the required ' +
  '`typ` and `aud` claims (§3.12); a secret of at least 32 characters, 32 random bytes on ' +
  'deployed stages (§3.5).'

/** The bearer schemes, one per audience and token use. */
export function securitySchemes() {
  return Object.fromEntries(
    Object.entries(SECURITY_SCHEMES).map(([name, description]) => [
      name,
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: `${description} ${JWT_PRACTICES}`,
      },
    ]),
  )
}

/** The document's `info`. */
export function infoOf({ version, license }: { version: string; license: string }) {
  return {
    title: 'wallet-backend',
    version,
    contact: { name: 'The wallet-backend team' },
    // package.json's: the service is not offered under a licence.
    license: { name: license },
    description:
      'Sessions by wallet signature or username and password, wallets, quotes, swaps, ' +
      'transfers, trades, networks, watchlist, projects and price history. Every success is ' +
      '`{ok: true, result}`; every error is `{ok: false, error: {code, message, details?}}` ' +
      'where `code` is the HTTP status, or for a 401 one of the sub-codes ' +
      Object.entries(UNAUTHORIZED_DESCRIPTIONS)
        .map(([code, meaning]) => `${code} (${meaning})`)
        .join(', ') +
      '.',
  }
}

// The stage that serves this document first, so "Try it out" on a deployed stage's page calls
// that stage, and on the local stack's page the local stack.
export const SERVERS = [
  {
    url: '/',
    description:
      'The stage serving this document: the local stack (`npm start`) or a deployed staging or production stage',
    'x-internal': false,
  },
  {
    url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
    description: 'A deployed staging or production stage (API Gateway HTTP API)',
    'x-internal': false,
    variables: {
      apiId: { default: 'abcdef1234', description: 'The HTTP API id of the stage' },
      region: { default: 'us-east-1', description: 'The AWS region of the stage' },
    },
  },
]

/** One tag per area, in the order the routes first name it. */
export function tagsOf(routes: Array<{ area: string }>) {
  return [...new Set(routes.map((route) => route.area))].map((name) => {
    const description = TAG_DESCRIPTIONS[name]
    if (!description) throw new Error(`lib/openapi/tagDescriptions.ts has no tag ${name}`)
    return { name, description }
  })
}
