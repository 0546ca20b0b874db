import { decodeJwt } from 'jose'
import { deleteLiveSession } from '../../lib/db/session'

/** Ends the session of an access token as a logout does (its item deleted). */
export async function endSessionOf(access: string): Promise<void> {
  const { aud, sub, sid } = decodeJwt(access)
  const ended = await deleteLiveSession({
    sessionId: String(sid),
    audience: aud === 'account' ? 'account' : 'wallet',
    subject: String(sub),
  })
  if (!ended) throw new Error('the session of this token was not live')
}
