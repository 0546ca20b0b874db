import { walletGuard } from '../../lib/auth/guard'
import type { Principal } from '../../lib/auth/principal'
import { defineHandler } from '../../lib/http/defineHandler'
import { issueTicket } from '../../lib/ws/issueTicket'
import { type WsTicketResult, wsTicketResultSchema } from '../../schemas/ws'

export async function createWsTicket(principal: Principal): Promise<WsTicketResult> {
  const ticket = await issueTicket({
    wallet: principal.subject as `0x${string}`,
    sessionId: principal.sessionId,
  })
  return { ticket }
}

export const handler = defineHandler({
  auth: walletGuard,
  result: wsTicketResultSchema,
  run: ({ principal }) => createWsTicket(principal),
})
