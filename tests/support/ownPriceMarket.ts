import { type Address, formatUnits, getAddress, parseAbi } from 'viem'
import { type PricingPath, readPriceState } from '../../lib/db/priceBoundary'
import { setUpHistoryTrader } from '../../lib/local/historyTrader'
import type { startOwnMarketDevnet } from './ownMarketDevnet'

// The market the pricing-path attacks are replayed on (tests/lib/markets/pricingPath*.test.ts):
// a token of the test's own at $0.30 in honest pools, on a devnet of the file's own.

type OwnMarket = Awaited<ReturnType<typeof startOwnMarketDevnet>>

export const TOKEN = 10n ** 18n
export const USD = 10n ** 6n
/** $0.30: 10 tokens for 3 USDC. */
export const PRICE = { a: 10n * TOKEN, b: 3n * USD }

const slot0Abi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
])

/** A price of 18 decimals as a number of dollars, for the tests' printed figures. */
export const usdOf = (valueE18: bigint) => Number(formatUnits(valueE18, 18))

/**
 * A token of the test's own and its honest pools at $0.30: a V2 pair of 400,000 tokens and
 * 120,000 USDC, and a V3 0.3 % position from half to twice the price holding $60,000 a side.
 */
export async function honestToken(own: OwnMarket, symbol: string) {
  const usdc = own.deployment.usdStablecoin
  const token = await own.deployToken(symbol, 18, 10_000_000n * TOKEN)
  await own.addV2Liquidity(token, 400_000n * TOKEN, usdc, 120_000n * USD)
  const wide = await own.mintV3Position({
    tokenA: token,
    tokenB: usdc,
    fee: 3000,
    price: PRICE,
    ticksBelow: 6960,
    ticksAbove: 6960,
    amountA: 200_000n * TOKEN,
    amountB: 60_000n * USD,
  })
  return { token, wide }
}

/**
 * Moves a pool holding no liquidity to 100 times the token's USD price (`up`) or a hundredth
 * (`down`): a swap whose price limit is the target crosses no liquidity, so it costs the pusher
 * nothing but gas (HistoryTrader.sol, from an account of its own, in a block 12 s after the
 * chain's last).
 */
export async function pushEmptyPool(
  own: OwnMarket,
  pool: Address,
  token: Address,
  direction: 'up' | 'down',
) {
  const [sqrtPrice] = await own.client.readContract({
    address: pool,
    abi: slot0Abi,
    functionName: 'slot0',
  })
  // The token is token0 (price in USDC per token: √ × 10 is 100 times) or token1 (√ / 10).
  const tokenIsToken0 = BigInt(token) < BigInt(own.deployment.usdStablecoin)
  const target = tokenIsToken0 === (direction === 'up') ? sqrtPrice * 10n : sqrtPrice / 10n
  const trader = await setUpHistoryTrader(own.deployment)
  await trader.moveAt((await own.chainTime()) + 12, [
    { pool, v3: true, targetSqrtPriceX96: target },
  ])
  await trader.close()
}

/** The project's stored pricing path. */
export async function pathOf(projectId: string): Promise<PricingPath> {
  const { path } = await readPriceState(projectId, { buckets: [], boundaries: [], now: new Date() })
  if (!path) throw new Error('no pricing path')
  return path
}

/** Every pool of the path, checksummed. */
export const poolsOf = (path: PricingPath) =>
  path.hops.flatMap((hop) => [hop, ...(hop.more ?? [])]).map((pool) => getAddress(pool.pool))
