/** A constant-product pair's reserves, as its getReserves() returns them. */
export interface V2PoolState {
  reserve0: bigint
  reserve1: bigint
  /** The pair's fee in basis points: 30 on Uniswap V2, 25 on PancakeSwap V2 (a network setting). */
  feeBps: number
}

/**
 * What the pair pays for `amountIn` of one side (UniswapV2Library.getAmountOut): the fee taken
 * from the input, the product kept, rounded down. Zero when a reserve is empty.
 */
export function v2AmountOut(
  amountIn: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feeBps: number,
): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n
  const amountInWithFee = amountIn * BigInt(10_000 - feeBps)
  return (amountInWithFee * reserveOut) / (reserveIn * 10_000n + amountInWithFee)
}

/** v2AmountOut from the pair's state, `zeroForOne` naming the side paid in. */
export function v2SwapExactIn(pool: V2PoolState, zeroForOne: boolean, amountIn: bigint): bigint {
  return zeroForOne
    ? v2AmountOut(amountIn, pool.reserve0, pool.reserve1, pool.feeBps)
    : v2AmountOut(amountIn, pool.reserve1, pool.reserve0, pool.feeBps)
}

/** The pair's reserves after a swap paid `amountIn` on one side and `amountOut` on the other. */
export function v2StateAfter(
  pool: V2PoolState,
  zeroForOne: boolean,
  amountIn: bigint,
  amountOut: bigint,
): V2PoolState {
  return zeroForOne
    ? { ...pool, reserve0: pool.reserve0 + amountIn, reserve1: pool.reserve1 - amountOut }
    : { ...pool, reserve0: pool.reserve0 - amountOut, reserve1: pool.reserve1 + amountIn }
}
