import type { TickDataProvider } from '@uniswap/v3-sdk'
import { type Address, parseAbi } from 'viem'
import type { NetworkName } from '../../lib/networkNames'
import { devnet } from './devnetAccounts'

// A V3 pool's ticks for the Uniswap SDK's swap loop, read straight from the pool at a block
// (tickBitmap words and ticks, as the contract walks them): not through the service's lens.

const poolAbi = parseAbi([
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)',
])

export class ChainTicks implements TickDataProvider {
  private readonly words = new Map<number, Promise<bigint>>()

  constructor(
    private readonly network: NetworkName,
    private readonly pool: Address,
    private readonly blockNumber: bigint,
  ) {}

  private word(position: number): Promise<bigint> {
    let word = this.words.get(position)
    if (!word) {
      word = devnet(this.network).readContract({
        address: this.pool,
        abi: poolAbi,
        functionName: 'tickBitmap',
        args: [position],
        blockNumber: this.blockNumber,
      })
      this.words.set(position, word)
    }
    return word
  }

  async getTick(tick: number): Promise<{ liquidityNet: string }> {
    const [, liquidityNet] = await devnet(this.network).readContract({
      address: this.pool,
      abi: poolAbi,
      functionName: 'ticks',
      args: [tick],
      blockNumber: this.blockNumber,
    })
    return { liquidityNet: liquidityNet.toString() }
  }

  /** TickBitmap.nextInitializedTickWithinOneWord, on the pool's own bitmap. */
  async nextInitializedTickWithinOneWord(
    tick: number,
    lte: boolean,
    tickSpacing: number,
  ): Promise<[number, boolean]> {
    let compressed = Math.floor(tick / tickSpacing)
    if (!lte) compressed += 1
    const position = compressed >> 8
    const bit = compressed - position * 256
    const bitmap = await this.word(position)
    if (lte) {
      const masked = bitmap & ((1n << BigInt(bit + 1)) - 1n)
      if (masked === 0n) return [(compressed - bit) * tickSpacing, false]
      return [(compressed - (bit - (masked.toString(2).length - 1))) * tickSpacing, true]
    }
    const masked = bitmap & ~((1n << BigInt(bit)) - 1n)
    if (masked === 0n) return [(compressed + (255 - bit)) * tickSpacing, false]
    let lowest = 0
    while (((masked >> BigInt(lowest)) & 1n) === 0n) lowest += 1
    return [(compressed + (lowest - bit)) * tickSpacing, true]
  }
}
