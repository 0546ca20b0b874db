import { createHash } from 'node:crypto'
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client'
import { wsTicketKey } from './wsKeys'

// WebSocket tickets (DECISIONS §10.3): single use, valid 30 s, stored by their hash only.

export const TICKET_LIFETIME_MS = 30_000

export interface TicketHolder {
  wallet: `0x${string}`
  sessionId: string
}

function ticketHash(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex')
}

export async function putTicket(ticket: string, holder: TicketHolder, now = Date.now()) {
  const validUntil = now + TICKET_LIFETIME_MS
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...wsTicketKey(ticketHash(ticket)),
        type: 'WsTicket',
        wallet: holder.wallet,
        sessionId: holder.sessionId,
        validUntil,
        // TTL removes it later; validity is `validUntil`, checked on use.
        expiresAt: Math.ceil(validUntil / 1000),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  )
}

/**
 * Consumes a ticket: one conditional delete, so of two connections presenting it one wins.
 * Undefined when it is unknown, used or expired.
 */
export async function consumeTicket(
  ticket: string,
  now = Date.now(),
): Promise<TicketHolder | undefined> {
  try {
    const { Attributes } = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: wsTicketKey(ticketHash(ticket)),
        ConditionExpression: 'attribute_exists(pk) AND validUntil > :now',
        ExpressionAttributeValues: { ':now': now },
        ReturnValues: 'ALL_OLD',
      }),
    )
    if (!Attributes) return undefined
    return { wallet: Attributes.wallet as `0x${string}`, sessionId: String(Attributes.sessionId) }
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return undefined
    throw error
  }
}
