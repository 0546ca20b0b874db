import { type Account, getLoginRecord, recordLoginFailure } from '../db/account'
import { TooManyRequests, UNAUTHORIZED, Unauthorized } from '../errors'
import { verifyPassword } from './password'

// DECISIONS §2: after 5 failed logins in 15 minutes a username answers 429 until the window passes.
export const MAX_FAILED_LOGINS = 5
export const FAILED_LOGIN_WINDOW_SECONDS = 15 * 60

export interface Credentials {
  username: string
  password: string
}

/**
 * The account the credentials open. A locked username is refused (429) before any hashing; an
 * unknown username and a wrong password cost the same work, count as a failure and get the same
 * 401004, so neither the answer nor its timing tells whether the account exists.
 */
export async function checkCredentials(
  { username, password }: Credentials,
  now = new Date(),
): Promise<Account> {
  const { account, failures } = await getLoginRecord(username, now)
  if (failures && failures.count >= MAX_FAILED_LOGINS) {
    const minutes = Math.ceil((failures.windowEndsAt - now.getTime() / 1000) / 60)
    throw new TooManyRequests(`too many failed logins; try again in ${minutes} minutes`)
  }
  const valid = await verifyPassword(password, account?.passwordHash)
  if (valid && account) return account
  await recordLoginFailure(username, { windowSeconds: FAILED_LOGIN_WINDOW_SECONDS, now })
  throw new Unauthorized(UNAUTHORIZED.credentialsRejected, 'username or password is wrong')
}
