import { randomBytes } from 'node:crypto'
import { putTicket, type TicketHolder } from '../db/wsTicket'

/** A single-use ticket for `$connect?ticket=` (DECISIONS §10.3): 32 random bytes, base64url. */
export async function issueTicket(holder: TicketHolder): Promise<string> {
  const ticket = randomBytes(32).toString('base64url')
  await putTicket(ticket, holder)
  return ticket
}
