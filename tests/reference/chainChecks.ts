import { type Address, encodeFunctionData } from 'viem'
import { quoterV2Abi, tokenAbi, v2PairAbi } from './chainAbis'
import { balanceOf, send, trader } from './devnetTrader'
import { v2AmountOut } from './fastPoolMath'
import type { OwnDevnetClient } from './ownDevnet'
import type { MarketSnapshot } from './readMarket'
import type { V3PoolInfo, V3State } from './poolTypes'
import { sdkV3Swap } from './sdkPoolMath'

// What the reference takes from the chain instead of assuming it, and its checks against the
// devnet's own contracts: the transfer fee of every token and the fee every V2 pair charges,
// measured with real transactions on the reference's copy (then undone), and the V3 SDK against
// the deployed QuoterV2 at the same block.

/** Checks of the reference's pool math against the chain, and those that failed. */
export interface ChainCheckLog {
  checks: number
  mismatches: string[]
}

export const newCheckLog = (): ChainCheckLog => ({ checks: 0, mismatches: [] })

/** Where the measuring transfers go: an address nobody holds. */
const SINK: Address = '0x00000000000000000000000000000000000fee01'

/** Runs `work` on the copy and undoes every transaction it sent (evm_snapshot / evm_revert). */
export async function undone<Result>(
  client: OwnDevnetClient,
  work: () => Promise<Result>,
): Promise<Result> {
  const id = await client.snapshot()
  try {
    return await work()
  } finally {
    await client.revert({ id })
  }
}

const transfer = (client: OwnDevnetClient, token: Address, to: Address, amount: bigint) =>
  send(client, {
    to: token,
    data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [to, amount] }),
  })

/**
 * Each token's fee on transfer in basis points, measured: real transfers of three amounts (one
 * large, two where rounding shows), and the fee must be floor(amount × bps / 10,000) for all of
 * them, else the reference cannot model the token and fails. Run it `undone`.
 */
export async function measureTransferFees(
  client: OwnDevnetClient,
  tokens: readonly { address: Address; decimals: number }[],
): Promise<Map<Address, number>> {
  const fees = new Map<Address, number>()
  for (const { address, decimals } of tokens) {
    const held = await balanceOf(client, address, trader.address)
    const amounts = [10n ** BigInt(decimals) * 1000n + 12_345n, 999n, 33n]
    if (held < (amounts[0] as bigint) * 2n) {
      throw new Error(`the trader holds too little of ${address} to measure its transfer fee`)
    }
    const taken: [bigint, bigint][] = []
    for (const amount of amounts) {
      const before = await balanceOf(client, address, SINK)
      await transfer(client, address, SINK, amount)
      taken.push([amount, amount - ((await balanceOf(client, address, SINK)) - before)])
    }
    const [large, largeFee] = taken[0] as [bigint, bigint]
    const guess = Number((largeFee * 10_000n) / large)
    const bps = [guess, guess + 1].find((candidate) =>
      taken.every(([amount, fee]) => fee === (amount * BigInt(candidate)) / 10_000n),
    )
    if (bps === undefined) {
      throw new Error(
        `${address}: transfer fees ${taken.map(([a, f]) => `${f} of ${a}`).join(', ')} fit no fee in basis points`,
      )
    }
    fees.set(address, bps)
  }
  return fees
}

/**
 * The fee each V2 pair charges, in basis points, measured on the pair itself: a real transfer in,
 * then the largest output its `swap` accepts (eth_call, bisected), which a constant-product pair
 * with an integer fee in bps gives by one formula; a pair that fits none fails. Run it `undone`.
 */
export async function measureV2Fees(
  client: OwnDevnetClient,
  pairs: readonly { address: Address; token0: Address; token1: Address }[],
  takesFee: (token: Address) => boolean,
): Promise<Map<Address, number>> {
  const fees = new Map<Address, number>()
  for (const pair of pairs) {
    // A surplus (tokens sent and not synced) would count as input: synced first, on the copy.
    await send(client, {
      to: pair.address,
      data: encodeFunctionData({ abi: v2PairAbi, functionName: 'sync' }),
    })
    const [reserve0, reserve1] = await client.readContract({
      address: pair.address,
      abi: v2PairAbi,
      functionName: 'getReserves',
    })
    const zeroForOne = !takesFee(pair.token0)
    const tokenIn = zeroForOne ? pair.token0 : pair.token1
    const reserveIn = zeroForOne ? reserve0 : reserve1
    await transfer(client, tokenIn, pair.address, reserveIn / 100n)
    const received = (await balanceOf(client, tokenIn, pair.address)) - reserveIn
    const state = { reserve0, reserve1 }
    const accepts = (out: bigint) =>
      client
        .call({
          account: trader.address,
          to: pair.address,
          data: encodeFunctionData({
            abi: v2PairAbi,
            functionName: 'swap',
            args: [zeroForOne ? 0n : out, zeroForOne ? out : 0n, trader.address, '0x'],
          }),
        })
        .then(
          () => true,
          () => false,
        )
    let low = v2AmountOut(state, zeroForOne, received, 1000)
    let high = v2AmountOut(state, zeroForOne, received, 0) + 1n
    if (!(await accepts(low)) || (await accepts(high))) {
      throw new Error(`${pair.address}: the pair's swap does not bracket a 0-10 % fee`)
    }
    while (high - low > 1n) {
      const middle = (low + high) / 2n
      if (await accepts(middle)) low = middle
      else high = middle
    }
    const bps = Array.from({ length: 1001 }, (_, fee) => fee).find(
      (fee) => v2AmountOut(state, zeroForOne, received, fee) === low,
    )
    if (bps === undefined) {
      throw new Error(`${pair.address}: its largest accepted output ${low} fits no fee in bps`)
    }
    fees.set(pair.address, bps)
  }
  return fees
}

/**
 * The V3 SDK against the deployed QuoterV2 at the snapshot's block: every pool, both ways, at
 * 0.01 % and 10 % of the pool's holding of the input token.
 */
export async function checkQuoter(
  client: OwnDevnetClient,
  quoter: Address,
  pools: readonly V3PoolInfo[],
  snapshot: MarketSnapshot,
  log: ChainCheckLog,
): Promise<void> {
  for (const pool of pools) {
    const state = snapshot.states.get(pool.address) as V3State
    // An uninitialized or empty pool has nothing to quote (and no path uses it).
    if (state.sqrtPriceX96 === 0n || state.ticks.length === 0) continue
    for (const zeroForOne of [true, false]) {
      const [tokenIn, tokenOut] = zeroForOne
        ? [pool.token0, pool.token1]
        : [pool.token1, pool.token0]
      const held = snapshot.balances.get(pool.address)?.get(tokenIn) ?? 0n
      for (const amountIn of [held / 10_000n, held / 10n]) {
        if (amountIn === 0n) continue
        const [{ result }, sdk] = await Promise.all([
          client.simulateContract({
            address: quoter,
            abi: quoterV2Abi,
            functionName: 'quoteExactInputSingle',
            args: [{ tokenIn, tokenOut, amountIn, fee: pool.fee, sqrtPriceLimitX96: 0n }],
            blockNumber: snapshot.blockNumber,
          }),
          sdkV3Swap(pool, state, zeroForOne, amountIn),
        ])
        log.checks += 1
        if (result[0] !== sdk.amountOut) {
          log.mismatches.push(
            `QuoterV2 ${pool.address} ${amountIn} ${zeroForOne ? '0→1' : '1→0'}: chain ${result[0]}, SDK ${sdk.amountOut}`,
          )
        }
      }
    }
  }
}
