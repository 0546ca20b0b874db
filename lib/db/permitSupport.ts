import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import type { NetworkName } from '../networkNames'
import { db, tableName } from './client'
import { permitSupportKey } from './keys'
import { isConditionFailed } from './writeConflicts'

// What the chain said of a token's EIP-2612 permit (lib/swap/permitSupport.ts probes it): kept,
// since a token's code does not change under its address (a proxy's might: an operator deletes
// the item and the next swap probes again).

export type PermitSupport =
  | { supported: false }
  | {
      supported: true
      /** The EIP-712 domain's name and version, which DOMAIN_SEPARATOR() was checked against. */
      name: string
      version: string
    }

export async function getPermitSupport(
  network: NetworkName,
  token: string,
): Promise<PermitSupport | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: permitSupportKey(network, token) }),
  )
  if (!Item) return undefined
  if (Item.supported !== true) return { supported: false }
  return { supported: true, name: String(Item.name), version: String(Item.version) }
}

/** Records a probe's answer once: a racing probe found the same, so the first write stands. */
export async function putPermitSupport(
  network: NetworkName,
  token: string,
  support: PermitSupport,
): Promise<void> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...permitSupportKey(network, token),
          type: 'PermitSupport',
          network,
          token: token.toLowerCase(),
          ...support,
          probedAt: new Date().toISOString(),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
  } catch (error) {
    if (!isConditionFailed(error)) throw error
  }
}
