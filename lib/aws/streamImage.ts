import type { AttributeValue } from '@aws-sdk/client-dynamodb'
import { unmarshall } from '@aws-sdk/util-dynamodb'

/** An item's image as the table's stream carries it (attribute values). */
export type StreamImage = Record<string, AttributeValue>

/** The item as the document client reads it (plain values). */
export function itemOfImage(image: StreamImage | undefined): Record<string, unknown> | undefined {
  return image ? unmarshall(image) : undefined
}
