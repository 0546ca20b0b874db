import type { Audience } from '../db/session'

/** Which token a route takes: the short-lived access token, or the refresh token. */
export type TokenUse = 'access' | 'refresh'

/** Who called: the verified claims of the bearer token, with its live session. */
export interface Principal {
  audience: Audience
  subject: string
  sessionId: string
  tokenId: string
  tokenUse: TokenUse
  /** The session's token family: from the session the guard read, or a refresh token's `fid`. */
  familyId?: string
}
