import { tableName } from './client'
import { sessionKey } from './keys'
import type { TransactItem } from './session'
import { LIVE_SESSION_CONDITION, liveSessionOperands, type SessionCondition } from './sessionItem'

// Apart from session.ts, which every guarded function bundles: only the functions whose
// transactions check the session carry this item, so only they are granted ConditionCheckItem.

/** The ConditionCheck that lets a transaction commit only while the caller's session is live. */
export function sessionConditionCheck(session: SessionCondition, now = new Date()): TransactItem {
  const live = liveSessionOperands(session, now)
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: sessionKey(session.sessionId),
      ConditionExpression: LIVE_SESSION_CONDITION,
      ExpressionAttributeNames: live.names,
      ExpressionAttributeValues: live.values,
    },
  }
}
