import { readFileSync } from 'node:fs'
import { inflateRawSync } from 'node:zlib'

// Reads the files of a deployment artifact (.zip) without an unzip binary: the central
// directory names each entry and where its (stored or deflated) data starts.

const END_OF_CENTRAL_DIRECTORY = 0x06054b50
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50

/** Every file of the archive, by its path inside it. */
export function zipEntries(path: string): Map<string, Buffer> {
  const zip = readFileSync(path)
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0 || zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) {
    throw new Error(`${path} is not a zip archive`)
  }
  const count = zip.readUInt16LE(end + 10)
  let offset = zip.readUInt32LE(end + 16)
  const entries = new Map<string, Buffer>()
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`${path}: bad entry`)
    const method = zip.readUInt16LE(offset + 10)
    const compressedSize = zip.readUInt32LE(offset + 20)
    const nameLength = zip.readUInt16LE(offset + 28)
    const extraLength = zip.readUInt16LE(offset + 30)
    const commentLength = zip.readUInt16LE(offset + 32)
    const localHeader = zip.readUInt32LE(offset + 42)
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength)
    const dataStart =
      localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28)
    const data = zip.subarray(dataStart, dataStart + compressedSize)
    if (!name.endsWith('/')) entries.set(name, method === 8 ? inflateRawSync(data) : data)
    offset += 46 + nameLength + extraLength + commentLength
  }
  return entries
}
