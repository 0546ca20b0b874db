import { type Audience, getSession, type Session } from '../db/session'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import type { Principal, TokenUse } from './principal'
import { refuseRotatedRefresh } from './sessions'
import { verifyToken } from './tokens'

/**
 * An authentication strategy for `defineHandler`'s `auth`: one kind of token, and its session
 * read before the core (`sessionRead: 'guard'`) or beside it (`'beside'`, docs/architecture.md).
 */
export interface Guard {
  audience: Audience
  tokenUse: TokenUse
  /** Verifies the token and admits its session (one GetItem): `sessionRead: 'guard'`. */
  authenticate(authorizationHeader: string | undefined): Promise<Principal>
  /** Verifies the token only: `sessionRead: 'beside'`, where `checkSession` runs beside the core. */
  verify(authorizationHeader: string | undefined): Promise<Principal>
  /** Reads the principal's session (one GetItem): 401003 unless it is live and the principal's. */
  checkSession(principal: Principal): Promise<void>
}

// The scheme is case-insensitive (RFC 7235). The signature may be empty so that an unsigned
// (`alg: none`) token reaches the verifier and is refused there as invalid (401002).
const BEARER = /^Bearer ([\w-]+\.[\w-]+\.[\w-]*)$/i

/** What a refresh guard does with a session its token already rotated: retry or replay. */
type RefuseRotated = (session: Session) => Promise<never>

/**
 * A guard for one kind of token: 401001 without a well-formed bearer header, 401002 when the token
 * does not verify or is of another kind, 401003 when its session has ended. A refresh guard is
 * handed what to do with a rotated session (revoke its family on a replay); an access guard only
 * refuses it, so a route on an access token carries no revocation and its role no delete.
 */
export function requireToken(audience: Audience, tokenUse: 'access'): Guard
export function requireToken(
  audience: Audience,
  tokenUse: 'refresh',
  refuseRotated: RefuseRotated,
): Guard
export function requireToken(
  audience: Audience,
  tokenUse: TokenUse,
  refuseRotated?: RefuseRotated,
): Guard {
  async function verify(header: string | undefined): Promise<Principal> {
    const token = header === undefined ? undefined : BEARER.exec(header.trim())?.[1]
    if (!token) {
      throw new Unauthorized(UNAUTHORIZED.missingToken, 'send Authorization: Bearer <token>')
    }
    const claims = await verifyToken(token, { audience, tokenUse })
    return {
      audience,
      subject: claims.subject,
      sessionId: claims.sessionId,
      tokenId: claims.tokenId,
      tokenUse,
      ...(claims.familyId && { familyId: claims.familyId }),
    }
  }

  async function admit(principal: Principal, session: Session | undefined): Promise<void> {
    if (
      !session ||
      session.sessionId !== principal.sessionId ||
      session.audience !== audience ||
      session.subject.toLowerCase() !== principal.subject.toLowerCase()
    ) {
      throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'the session has ended; sign in again')
    }
    if (session.status === 'rotated') {
      // A refresh token presented again after its rotation: a retry, or a replay of its family.
      if (refuseRotated) await refuseRotated(session)
      throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'the session was replaced by a refresh')
    }
  }

  return {
    audience,
    tokenUse,
    verify,
    async checkSession(principal) {
      await admit(principal, await getSession(principal.sessionId))
    },
    async authenticate(header) {
      const principal = await verify(header)
      const session = await getSession(principal.sessionId)
      await admit(principal, session)
      return { ...principal, familyId: session?.familyId }
    },
  }
}

// Pure: a bundle keeps only the guards its route uses, so the refresh guards' revocation (an
// UpdateItem and a DeleteItem) stays out of every other function (IAM per path, issue 22).
export const walletGuard = /* @__PURE__ */ requireToken('wallet', 'access')
export const accountGuard = /* @__PURE__ */ requireToken('account', 'access')
export const walletRefreshGuard = /* @__PURE__ */ requireToken(
  'wallet',
  'refresh',
  refuseRotatedRefresh,
)
export const accountRefreshGuard = /* @__PURE__ */ requireToken(
  'account',
  'refresh',
  refuseRotatedRefresh,
)
