import { randomBytes } from 'node:crypto'

/**
 * A client source address no other test (nor another call) shares: an IPv6 address in a random
 * /64 of the documentation prefix 2001:db8::/32, as per-client budgets group IPv6 by /64. Drawn
 * from 192.0.2.1-250 instead, one run in 250 gave a test's owner its stranger's budget.
 */
export function uniqueClient(): string {
  const bytes = randomBytes(4)
  return `2001:db8:${bytes.readUInt16BE(0).toString(16)}:${bytes.readUInt16BE(2).toString(16)}::1`
}
