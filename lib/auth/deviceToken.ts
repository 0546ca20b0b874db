import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { macKey } from './macKey'

/** DECISIONS §10.4: a device an account signed in on is known for 90 days. */
export const DEVICE_TOKEN_LIFETIME_SECONDS = 90 * 24 * 60 * 60

// `d1.<expiry, epoch seconds>.<16 random bytes>.<HMAC-SHA256>`, base64url: opaque to the client
// (the username is bound by the MAC, not written in it), checked without a table read.
const VERSION = 'd1'
const TOKEN = /^d1\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/

async function macOf(username: string, expiresAt: string, id: string): Promise<Buffer> {
  return createHmac('sha256', await macKey('device'))
    .update(`${VERSION}|${username.toLowerCase()}|${expiresAt}|${id}`)
    .digest()
}

/** A device token for the username, valid DEVICE_TOKEN_LIFETIME_SECONDS from `now`. */
export async function issueDeviceToken(username: string, now = new Date()): Promise<string> {
  const expiresAt = String(Math.floor(now.getTime() / 1000) + DEVICE_TOKEN_LIFETIME_SECONDS)
  const id = randomBytes(16).toString('base64url')
  const mac = await macOf(username, expiresAt, id)
  return `${VERSION}.${expiresAt}.${id}.${mac.toString('base64url')}`
}

/**
 * Whether `token` is a device token the service issued for this username (in any casing) that
 * has not expired at `now`. Anything else, malformed, forged, expired or another name's, is
 * simply not one: never an error.
 */
export async function isDeviceTokenFor(
  token: string,
  username: string,
  now = new Date(),
): Promise<boolean> {
  const match = TOKEN.exec(token)
  if (!match) return false
  const [, expiresAt = '', id = '', mac = ''] = match
  if (Number(expiresAt) <= Math.floor(now.getTime() / 1000)) return false
  const expected = await macOf(username, expiresAt, id)
  // Compared as the canonical text: a last character differing only in unused bits decodes to
  // the same bytes, and is not the token that was issued.
  const given = Buffer.from(mac, 'utf8')
  const issued = Buffer.from(expected.toString('base64url'), 'utf8')
  return given.length === issued.length && timingSafeEqual(given, issued)
}
