import { getBlock } from 'viem/actions'
import type { ChainClient } from './clients'

export interface BlockTime {
  number: bigint
  /** Unix seconds. */
  timestamp: bigint
}

/**
 * The last block whose timestamp is before a moment: its state held from its own time until that
 * moment (the next block came at or after it). The head when no block is that late yet;
 * undefined when genesis is not before it.
 */
export type FindBlockBefore = (timestamp: bigint) => Promise<BlockTime | undefined>

/**
 * A search for the blocks before many moments below one head (interpolating on block times,
 * alternating with bisection so an uneven chain still ends in O(log n) reads), sharing the block
 * times it has read: each search starts from the tightest blocks known around its moment, so the
 * boundaries of a window, close to each other, take a few reads each after the first.
 */
export function blockSearch(client: ChainClient, latest: BlockTime): FindBlockBefore {
  const known = new Map<bigint, bigint>([[latest.number, latest.timestamp]])
  const timeOf = async (number: bigint): Promise<bigint> => {
    const cached = known.get(number)
    if (cached !== undefined) return cached
    const { timestamp } = await getBlock(client, { blockNumber: number })
    known.set(number, timestamp)
    return timestamp
  }
  return async (timestamp) => {
    if (latest.timestamp < timestamp) return latest
    // Invariant: time(low) < timestamp <= time(high).
    let knownLow: bigint | undefined
    let high = latest.number
    for (const [number, time] of known) {
      if (time < timestamp && (knownLow === undefined || number > knownLow)) knownLow = number
      if (time >= timestamp && number < high) high = number
    }
    if (knownLow === undefined && (await timeOf(0n)) >= timestamp) return undefined
    let low: bigint = knownLow ?? 0n
    let lowTime = await timeOf(low)
    let highTime = await timeOf(high)
    for (let step = 0; high - low > 1n; step += 1) {
      let guess: bigint =
        step % 2 === 0 && highTime > lowTime
          ? low + ((timestamp - lowTime) * (high - low)) / (highTime - lowTime)
          : (low + high) / 2n
      if (guess <= low) guess = low + 1n
      if (guess >= high) guess = high - 1n
      const guessTime = await timeOf(guess)
      if (guessTime < timestamp) {
        low = guess
        lowTime = guessTime
      } else {
        high = guess
        highTime = guessTime
      }
    }
    return { number: low, timestamp: lowTime }
  }
}
