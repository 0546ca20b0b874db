import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { decodeJwt } from 'jose'
import { db, tableName } from '../../lib/db/client'
import { sessionKey } from '../../lib/db/keys'

/**
 * Moves the rotation of the token's session `seconds` into the past, as if the client came back
 * later with it: past the replay grace period, presenting it again is a replay.
 */
export async function backdateRotation(token: string, seconds: number): Promise<void> {
  const sessionId = String(decodeJwt(token).sid)
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: sessionKey(sessionId),
      UpdateExpression: 'SET rotatedAt = :past',
      ConditionExpression: 'attribute_exists(rotatedAt)',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - seconds * 1000).toISOString() },
    }),
  )
}
