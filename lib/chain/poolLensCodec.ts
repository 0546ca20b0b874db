import { type Address, getAddress, type Hex, toFunctionSelector } from 'viem'
import { poolLensAbi } from './poolLens'

// The PoolLens calls a quote makes, encoded and decoded by their fixed layouts. viem's generic
// ABI coder spent 3.3 ms of a warm quote's 11 ms of CPU here (the answer is some hundred words a
// pool: the ticks of every V3 pool of every pair); walking the hex by the layout takes a fraction
// of that. tests/lib/chain/poolLensCodec.test.ts checks both ways against viem's coder on
// generated calls and answers.

const [readAbi, pageAbi] = poolLensAbi
const READ_SELECTOR = toFunctionSelector(readAbi).slice(2)
const PAGE_SELECTOR = toFunctionSelector(pageAbi).slice(2)

export interface LensLookup {
  version: number
  factory: Address
  tokenA: Address
  tokenB: Address
  fee: number
}

export interface LensPage {
  pool: Address
  tickSpacing: number
  start: number
  up: boolean
}

export interface LensPoolState {
  pool: Address
  token0: Address
  reserve0: bigint
  reserve1: bigint
  tick: number
  tickSpacing: number
  scannedLower: number
  scannedUpper: number
  ticks: number[]
  liquidityNets: bigint[]
}

export interface LensPageState {
  scanned: number
  ticks: number[]
  liquidityNets: bigint[]
}

const word = (value: bigint) => BigInt.asUintN(256, value).toString(16).padStart(64, '0')
const addressWord = (address: Address) => address.slice(2).toLowerCase().padStart(64, '0')

/** `read(lookups, wordsEachSide, ticksEachSide)` as calldata. */
export function encodeLensRead(
  lookups: readonly LensLookup[],
  wordsEachSide: bigint,
  ticksEachSide: bigint,
): Hex {
  const parts = [READ_SELECTOR, word(0x60n), word(wordsEachSide), word(ticksEachSide)]
  parts.push(word(BigInt(lookups.length)))
  for (const lookup of lookups) {
    parts.push(
      word(BigInt(lookup.version)),
      addressWord(lookup.factory),
      addressWord(lookup.tokenA),
      addressWord(lookup.tokenB),
      word(BigInt(lookup.fee)),
    )
  }
  return `0x${parts.join('')}`
}

/** `page(pages, words, maxTicks)` as calldata. */
export function encodeLensPage(pages: readonly LensPage[], words: bigint, maxTicks: bigint): Hex {
  const parts = [PAGE_SELECTOR, word(0x60n), word(words), word(maxTicks)]
  parts.push(word(BigInt(pages.length)))
  for (const page of pages) {
    parts.push(
      addressWord(page.pool),
      word(BigInt(page.tickSpacing)),
      word(BigInt(page.start)),
      word(page.up ? 1n : 0n),
    )
  }
  return `0x${parts.join('')}`
}

const HEX_WORD = /^[0-9a-fA-F]{64}$/

/** Reads 32-byte words of ABI-encoded data, each bounds-checked: a short answer throws. */
class Words {
  private readonly hex: string
  readonly count: number
  constructor(data: Hex) {
    // Whole words; each word read is parsed as hex (uint), so a stray character is refused there
    // (a pattern over the whole answer cost a cold start 4 ms).
    if (!data.startsWith('0x') || (data.length - 2) % 64 !== 0) {
      throw new Error(`the pool lens answered ${data.length} characters, not whole 32-byte words`)
    }
    this.hex = data
    this.count = (data.length - 2) / 64
  }
  private at(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) {
      throw new Error(`the pool lens's answer has no word ${index} (it has ${this.count})`)
    }
    return this.hex.slice(2 + index * 64, 66 + index * 64)
  }
  uint(index: number): bigint {
    const hex = this.at(index)
    if (!HEX_WORD.test(hex)) throw new Error(`the pool lens's answer has a word that is not hex`)
    return BigInt(`0x${hex}`)
  }
  /** A word holding an offset or a length: a small number. */
  size(index: number): number {
    const value = this.uint(index)
    if (value > BigInt(this.count * 32)) {
      throw new Error(`the pool lens's answer points past its end (${value})`)
    }
    return Number(value)
  }
  /** A byte offset, relative to word `base`, as a word index. */
  offset(index: number, base: number): number {
    const bytes = this.size(index)
    if (bytes % 32 !== 0) throw new Error(`the pool lens's answer has an unaligned offset`)
    return base + bytes / 32
  }
  int24(index: number): number {
    return Number(BigInt.asIntN(24, this.uint(index)))
  }
  int128(index: number): bigint {
    return BigInt.asIntN(128, this.uint(index))
  }
  address(index: number): Address {
    return checksummed(`0x${this.at(index).slice(24)}`)
  }
}

/** Checksummed addresses by lower-case form: a container sees few pools and tokens. */
const CHECKSUMMED_KEPT = 10_000
const checksums = new Map<string, Address>()
function checksummed(lower: string): Address {
  let address = checksums.get(lower)
  if (!address) {
    if (checksums.size >= CHECKSUMMED_KEPT) checksums.clear()
    address = getAddress(lower)
    checksums.set(lower, address)
  }
  return address
}

/** The elements of the tuple array whose offset is word 0: each element's first word. */
function tupleStarts(words: Words): number[] {
  const array = words.offset(0, 0)
  const length = words.size(array)
  const starts: number[] = []
  for (let element = 0; element < length; element += 1) {
    starts.push(words.offset(array + 1 + element, array + 1))
  }
  return starts
}

/** An int24[] and an int128[] of one length, their offsets at words `ticks` and `nets`. */
function tickArrays(words: Words, start: number, ticks: number, nets: number) {
  const ticksAt = words.offset(ticks, start)
  const netsAt = words.offset(nets, start)
  const count = words.size(ticksAt)
  const netCount = words.size(netsAt)
  const indexes: number[] = []
  const liquidityNets: bigint[] = []
  for (let position = 0; position < count; position += 1) {
    indexes.push(words.int24(ticksAt + 1 + position))
  }
  for (let position = 0; position < netCount; position += 1) {
    liquidityNets.push(words.int128(netsAt + 1 + position))
  }
  return { ticks: indexes, liquidityNets }
}

/** What `read` answered: each lookup's pool state, in the lookups' order. */
export function decodeLensRead(data: Hex): LensPoolState[] {
  const words = new Words(data)
  return tupleStarts(words).map((start) => ({
    pool: words.address(start),
    token0: words.address(start + 1),
    reserve0: words.uint(start + 2),
    reserve1: words.uint(start + 3),
    tick: words.int24(start + 4),
    tickSpacing: words.int24(start + 5),
    scannedLower: words.int24(start + 6),
    scannedUpper: words.int24(start + 7),
    ...tickArrays(words, start, start + 8, start + 9),
  }))
}

/** What `page` answered: each page's ticks, in the pages' order. */
export function decodeLensPage(data: Hex): LensPageState[] {
  const words = new Words(data)
  return tupleStarts(words).map((start) => ({
    scanned: words.int24(start),
    ...tickArrays(words, start, start + 1, start + 2),
  }))
}
