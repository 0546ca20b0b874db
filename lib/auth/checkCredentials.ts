import { type Account, getAccount } from '../db/account'
import type { TableKey } from '../db/keys'
import { UNAUTHORIZED, Unauthorized } from '../errors'
import { type ReservedAttempt, reserveAttempt, reserveUnknownDeviceCheck } from './attemptBudget'
import { isDeviceTokenFor } from './deviceToken'
import { verifyPassword } from './password'

export interface Credentials {
  username: string
  password: string
  /** A device token of an earlier login (DECISIONS §10.4); one not valid for the name is none. */
  device?: string
}

export interface CheckedCredentials {
  account: Account
  /** The checks this login reserved: the session's transaction gives them back (startSession). */
  checks: TableKey[]
}

/**
 * The account the credentials open. Before any hashing (in parallel with the account read), one
 * check is reserved in this client's budget at this name and, unless the login carries a valid
 * device token for the name, one of the name's checks from unknown devices (DECISIONS §9.4,
 * §10.4): a client's burst of guesses, or many clients' guesses together, get at most their
 * window's scrypt checks and the rest answer 429, while the owner on a known device is held by
 * its own client's budget only. An unknown username and a wrong password cost the same work and
 * get the same 401004; a right password's checks are for its session to give back.
 */
export async function checkCredentials(
  { username, password, device }: Credentials,
  sourceIp: string,
  now = new Date(),
): Promise<CheckedCredentials> {
  const knownDevice = device !== undefined && (await isDeviceTokenFor(device, username, now))
  const [attempts, account] = await Promise.all([
    reserveChecks(username, sourceIp, knownDevice, now),
    getAccount(username),
  ])
  const valid = await verifyPassword(password, account?.passwordHash)
  if (valid && account) return { account, checks: attempts.map((attempt) => attempt.key) }
  throw new Unauthorized(UNAUTHORIZED.credentialsRejected, 'username or password is wrong')
}

/**
 * The client's check first, so a client over its own budget never touches the name's; when the
 * name's is spent, the client's is given back (no check was made).
 */
async function reserveChecks(
  username: string,
  sourceIp: string,
  knownDevice: boolean,
  now: Date,
): Promise<ReservedAttempt[]> {
  const clientAttempt = await reserveAttempt('account', username, sourceIp, now)
  if (knownDevice) return [clientAttempt]
  try {
    return [clientAttempt, await reserveUnknownDeviceCheck(username, now)]
  } catch (error) {
    await clientAttempt.release()
    throw error
  }
}
