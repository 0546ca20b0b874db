import { refuseRotatedRefresh } from '../auth/sessions'
import { verifyToken } from '../auth/tokens'
import { getSession, type Session } from '../db/session'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import type { Audience, Guard, Principal, TokenUse } from './types'

// The scheme is case-insensitive (RFC 7235). The signature may be empty so that an unsigned
// (`alg: none`) token reaches the verifier and is refused there as invalid (401002).
const BEARER = /^Bearer ([\w-]+\.[\w-]+\.[\w-]*)$/i

/**
 * A guard for one kind of token: 401001 without a well-formed bearer header, 401002 when the token
 * does not verify or is of another kind, 401003 when its session has ended.
 */
export function requireToken(audience: Audience, tokenUse: TokenUse): Guard {
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
      if (tokenUse === 'refresh') await refuseRotatedRefresh(session)
      throw new Unauthorized(UNAUTHORIZED.sessionEnded, 'the session was replaced by a refresh')
    }
  }

  return {
    audience,
    tokenUse,
    verify,
    admit,
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

export const walletGuard = requireToken('wallet', 'access')
export const accountGuard = requireToken('account', 'access')
export const walletRefreshGuard = requireToken('wallet', 'refresh')
export const accountRefreshGuard = requireToken('account', 'refresh')
