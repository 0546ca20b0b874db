import fc from 'fast-check'
import { type Address, encodeFunctionData } from 'viem'
import { tokenAbi, v2PairAbi, v3PoolAbi } from './chainAbis'
import { send } from './devnetTrader'
import type { PoolInfo, V2PoolInfo, V3PoolInfo } from './poolTypes'
import { type TradeContext, tradeV2 } from './randomTrades'

// A state the search must route through two prices of one pair (issue 42): every V2 pair that
// has a V3 pool of the same two tokens is traded, for real, until its mid price is a seeded 5-40 %
// above or below that V3 pool's (the one with the most liquidity in range), then both prices are
// read again from the chain and the distance measured.

/** How far each V2 pair is moved from its V3 pool's price: a share drawn in this range. */
export const APART_MIN = 0.05
export const APART_MAX = 0.4

export interface MovedPair {
  pair: Address
  v3Pool: Address
  /** The drawn distance, signed: +0.2 puts the V2 price 20 % above the V3 pool's. */
  target: number
  /** V2 mid / V3 mid − 1, read from the chain after the move. */
  measured: number
}

const v3Mid = (sqrtPriceX96: bigint) => (Number(sqrtPriceX96) / 2 ** 96) ** 2

/** Each V2 pair with its V3 counterpart of most liquidity in range (none: not moved). */
async function counterparts(
  { client }: TradeContext,
  pools: readonly PoolInfo[],
): Promise<{ pair: V2PoolInfo; v3: V3PoolInfo }[]> {
  const v3 = pools.filter((pool): pool is V3PoolInfo => pool.protocol === 'v3')
  const liquidity = new Map(
    await Promise.all(
      v3.map(
        async (pool) =>
          [
            pool.address,
            await client.readContract({
              address: pool.address,
              abi: v3PoolAbi,
              functionName: 'liquidity',
            }),
          ] as const,
      ),
    ),
  )
  return pools.flatMap((pair) => {
    if (pair.protocol !== 'v2') return []
    const [deepest] = v3
      .filter((pool) => pool.token0 === pair.token0 && pool.token1 === pair.token1)
      .filter((pool) => (liquidity.get(pool.address) ?? 0n) > 0n)
      .sort((a, b) => Number((liquidity.get(b.address) ?? 0n) - (liquidity.get(a.address) ?? 0n)))
    return deepest ? [{ pair, v3: deepest }] : []
  })
}

/** The two mid prices (token1 per token0, base units), read from the chain. */
async function mids({ client }: TradeContext, pair: Address, v3: Address) {
  const [[reserve0, reserve1], [sqrtPriceX96]] = await Promise.all([
    client.readContract({ address: pair, abi: v2PairAbi, functionName: 'getReserves' }),
    client.readContract({ address: v3, abi: v3PoolAbi, functionName: 'slot0' }),
  ])
  return { reserve0, reserve1, v2: Number(reserve1) / Number(reserve0), v3: v3Mid(sqrtPriceX96) }
}

/**
 * What the pair must receive of its input token to move its mid price to `target` (token1 per
 * token0): with γ the share of the input left after the pair's fee, an input a of token0 leaves
 * r1·r0 / ((r0 + γa)(r0 + a)), a quadratic in a (token1 in: the same with the sides swapped).
 */
function inputFor(reserveIn: number, reserveOut: number, price: number, gamma: number): number {
  // price: the output token per input token wanted after the trade.
  const c = (reserveOut * reserveIn) / price
  const b = reserveIn * (1 + gamma)
  const root = Math.sqrt(b * b - 4 * gamma * (reserveIn * reserveIn - c))
  return (root - b) / (2 * gamma)
}

/** Moves every V2 pair with a V3 counterpart apart from it, by seeded distances. */
export async function moveV2Apart(
  context: TradeContext & { transferFeeBps: (token: Address) => number },
  seed: number,
): Promise<MovedPair[]> {
  const pairs = await counterparts(context, context.pools)
  // Without fast-check's bias towards the bounds: distances spread over the whole range.
  const [draws = []] = fc.sample(
    fc.noBias(
      fc.array(
        fc.record({
          share: fc.double({ min: APART_MIN, max: APART_MAX, noNaN: true }),
          above: fc.boolean(),
        }),
        { minLength: pairs.length, maxLength: pairs.length },
      ),
    ),
    { seed, numRuns: 1 },
  )
  const moved: MovedPair[] = []
  for (const [index, { pair, v3 }] of pairs.entries()) {
    const { share, above } = draws[index] ?? { share: APART_MIN, above: true }
    const target = above ? share : -share
    // A surplus would count as input: synced first, then the reserves the quadratic starts from.
    await send(context.client, {
      to: pair.address,
      data: encodeFunctionData({ abi: v2PairAbi, functionName: 'sync' }),
    })
    const before = await mids(context, pair.address, v3.address)
    const wanted = before.v3 * (1 + target)
    // Token0 in lowers the price (token1 per token0); token1 in raises it.
    const zeroForOne = wanted < before.v2
    const [tokenIn, reserveIn, reserveOut, price] = zeroForOne
      ? [pair.token0, before.reserve0, before.reserve1, wanted]
      : [pair.token1, before.reserve1, before.reserve0, 1 / wanted]
    const gamma = 1 - pair.feeBps / 10_000
    const received = inputFor(Number(reserveIn), Number(reserveOut), price, gamma)
    // A fee-on-transfer token: send enough that what arrives is `received`.
    const amountIn = BigInt(Math.ceil(received / (1 - context.transferFeeBps(tokenIn) / 10_000)))
    if (amountIn <= 0n) continue
    if (tokenIn === context.wrappedNative) {
      await send(context.client, {
        to: tokenIn,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'deposit' }),
        value: amountIn,
      })
    }
    await tradeV2(context, pair, zeroForOne, tokenIn, amountIn)
    const after = await mids(context, pair.address, v3.address)
    moved.push({
      pair: pair.address,
      v3Pool: v3.address,
      target,
      measured: after.v2 / after.v3 - 1,
    })
  }
  return moved
}
