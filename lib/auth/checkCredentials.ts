import { type Account, getAccount } from '../db/account'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import { reserveAttempt } from './attemptBudget'
import { verifyPassword } from './password'

export interface Credentials {
  username: string
  password: string
}

/**
 * The account the credentials open. An attempt of this client at this name is reserved before any
 * hashing (in parallel with the account read), so a client's burst of guesses gets at most its
 * window's budget of scrypt checks and the rest answer 429, while other clients, the owner among
 * them, are not held back (DECISIONS §9.4). An unknown username and a wrong password cost the
 * same work and get the same 401004; a right password gives its attempt back.
 */
export async function checkCredentials(
  { username, password }: Credentials,
  sourceIp: string,
  now = new Date(),
): Promise<Account> {
  const [attempt, account] = await Promise.all([
    reserveAttempt('account', username, sourceIp, now),
    getAccount(username),
  ])
  const valid = await verifyPassword(password, account?.passwordHash)
  if (valid && account) {
    await attempt.release()
    return account
  }
  throw new Unauthorized(UNAUTHORIZED.credentialsRejected, 'username or password is wrong')
}
