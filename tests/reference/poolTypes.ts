import type { Address } from 'viem'

// The reference's own view of a network's pools (issue 33's brute force): found from the
// factories' logs and read from the pools themselves, never through the service's lens.

/** A constant-product pair; `feeBps` is what the deployed pair charges, measured on chain. */
export interface V2PoolInfo {
  protocol: 'v2'
  address: Address
  token0: Address
  token1: Address
  feeBps: number
}

/** A concentrated-liquidity pool (Uniswap V3, or PancakeSwap V3 with its own tiers and spacings). */
export interface V3PoolInfo {
  protocol: 'v3'
  address: Address
  token0: Address
  token1: Address
  /** Hundredths of a basis point, as the pool's `fee()` answers. */
  fee: number
  tickSpacing: number
}

export type PoolInfo = V2PoolInfo | V3PoolInfo

/**
 * A pair's reserves and what it holds beyond them (a transfer nobody swapped or synced yet): the
 * router's V2 swap counts the input side's surplus as input (balance − reserve), and a swap
 * syncs both reserves to the balances.
 */
export interface V2State {
  reserve0: bigint
  reserve1: bigint
  surplus0: bigint
  surplus1: bigint
}

/** One initialized tick: its index and the liquidity that starts (or, if negative, ends) there. */
export interface TickEntry {
  index: number
  liquidityNet: bigint
}

export interface V3State {
  sqrtPriceX96: bigint
  tick: number
  liquidity: bigint
  /** Every initialized tick of the pool, ascending (read whole; swaps never change them). */
  ticks: readonly TickEntry[]
}

export type PoolState = V2State | V3State

/** Every pool's state at one block. Addresses are lower-case keys. */
export type Market = ReadonlyMap<Address, PoolState>

/** A hop of a path: a pool and the direction it is crossed. */
export interface Hop {
  pool: PoolInfo
  tokenIn: Address
  tokenOut: Address
  /** tokenIn is the pool's token0. */
  zeroForOne: boolean
}

/** A path of 1-3 hops, from the router's input token to its output token. */
export interface Path {
  hops: readonly Hop[]
  /** A stable name for printing and keys: the pools in order. */
  key: string
}

/** Lower-case, so addresses compare as strings. */
export const lower = (address: string): Address => address.toLowerCase() as Address
