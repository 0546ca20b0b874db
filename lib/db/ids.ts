import { createHash, randomBytes } from 'node:crypto'

const NAMESPACE = 'wallet-backend'

/**
 * A name-based UUID (RFC 9562 version 5 layout): the same name gives the same id in every stage
 * and on every import, so re-importing the catalog or re-seeding keeps ids stable.
 */
export function nameBasedUuid(name: string): string {
  const hash = createHash('sha1').update(`${NAMESPACE}/${name}`).digest()
  hash.writeUInt8((hash.readUInt8(6) & 0x0f) | 0x50, 6)
  hash.writeUInt8((hash.readUInt8(8) & 0x3f) | 0x80, 8)
  return formatUuid(hash.subarray(0, 16))
}

/**
 * A random UUID whose first 48 bits are the time in milliseconds (RFC 9562 version 7): ids made
 * later sort after ids made earlier, so a sort key of ids is also a sort key of creation time.
 */
export function timeOrderedUuid(date: Date = new Date()): string {
  const bytes = randomBytes(16)
  bytes.writeUIntBE(date.getTime(), 0, 6)
  bytes.writeUInt8((bytes.readUInt8(6) & 0x0f) | 0x70, 6)
  bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8)
  return formatUuid(bytes)
}

/** 16 bytes as the 8-4-4-4-12 hex groups of a UUID. */
function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex')
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20),
  ].join('-')
}
