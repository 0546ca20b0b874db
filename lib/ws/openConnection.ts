import { loadWsConfig } from '../config/wsConfig'
import { consumeTicket } from '../db/wsTicket'
import { CONNECTION_LIFETIME_MS, countOpenConnections, putConnection } from '../db/wsConnection'

// $connect (DECISIONS §10.3): the ticket is consumed (single use, 30 s), the wallet's open
// connections counted against its limit, and the connection recorded with its wallet. The answer
// is the status API Gateway gives the handshake: 200 opens it, 401 a ticket refused, 429 a wallet
// at its limit.

export type ConnectOutcome = 200 | 401 | 429

export async function openConnection(
  connectionId: string,
  ticket: string,
  now = Date.now(),
): Promise<ConnectOutcome> {
  const holder = await consumeTicket(ticket, now)
  if (!holder) return 401
  const { maxConnections } = loadWsConfig()
  if ((await countOpenConnections(holder.wallet, now)) >= maxConnections) return 429
  await putConnection({
    connectionId,
    wallet: holder.wallet,
    openUntil: now + CONNECTION_LIFETIME_MS,
  })
  return 200
}
