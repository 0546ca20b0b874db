import { createHash } from 'node:crypto'

const NAMESPACE = 'wallet-backend'

/**
 * A name-based UUID (RFC 9562 version 5 layout): the same name gives the same id in every stage
 * and on every import, so re-importing the catalog or re-seeding keeps ids stable.
 */
export function nameBasedUuid(name: string): string {
  const hash = createHash('sha1').update(`${NAMESPACE}/${name}`).digest()
  hash.writeUInt8((hash.readUInt8(6) & 0x0f) | 0x50, 6)
  hash.writeUInt8((hash.readUInt8(8) & 0x3f) | 0x80, 8)
  const hex = hash.subarray(0, 16).toString('hex')
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20),
  ].join('-')
}
