import * as fc from 'fast-check'
import { type Address, type Hex, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { legsOf, swapRouterCall } from '../../lib/chain/swapRouterCall'
import type { DexDeployment } from '../../lib/local/deployDex'
import { Unprocessable } from '../../lib/errors'
import type { NetworkName } from '../../lib/networkNames'
import { bestRoute } from '../../lib/routing/quote/bestRoute'
import type { GasShape } from '../../lib/routing/gas/gasModel'
import { SAMPLE_CATALOG } from '../../lib/local/sampleCatalog'
import { approveAll, fundTrader, trader } from '../reference/devnetTrader'
import type { OwnDevnet } from '../reference/ownDevnet'

// Swaps of generated shapes executed on a devnet copy through the service's own path (bestRoute
// chooses and prices the split, swapRouterCall builds the one SwapRouter02 multicall the `{key}`
// routes send): each quote's `gas` beside its receipt's `gasUsed` (DECISIONS §10.2). The fit
// (fitGasUnits.ts) and the test (gasEstimate.test.ts) both run these.

/** A catalog token, or the native coin, with its USD price (the demo catalog's). */
export interface ShapeToken {
  symbol: string
  /** The token, or the wrapped coin for the native coin. */
  address: Address
  native: boolean
  decimals: number
  usdPrice: number
}

/** One generated swap: its ends, its size in USD and whether the recipient is a fresh account. */
export interface ShapeCase {
  from: ShapeToken
  to: ShapeToken
  usd: number
  freshRecipient: boolean
}

/** One executed swap: the quote's estimate and shape, and the receipt's gas. */
export interface ExecutedShape {
  network: NetworkName
  label: string
  shape: GasShape
  estimate: bigint
  gasUsed: bigint
  /** Each route's hops: protocol, pool and, on V3, the fee tier. */
  routes: string[][]
  /** The swap's transaction, to trace it while its devnet runs. */
  hash: Hex
}

/** Every catalog token (the zoo's and the V3-only ones too) and the native coin. */
export function shapeTokens(deployment: DexDeployment): ShapeToken[] {
  const catalog = SAMPLE_CATALOG[deployment.network]
  const listed = [
    { ...catalog.usdStablecoin, address: deployment.usdStablecoin },
    ...deployment.tokens,
    ...deployment.v3OnlyTokens,
    ...deployment.zoo,
  ]
  return [
    ...listed.map((token) => ({
      symbol: token.symbol,
      address: token.address,
      native: false,
      decimals: token.decimals,
      usdPrice: Number(token.usdPrice),
    })),
    {
      symbol: catalog.nativeCurrency.symbol,
      address: deployment.wrappedNative,
      native: true,
      decimals: 18,
      usdPrice: Number(catalog.nativeCurrency.usdPrice),
    },
  ]
}

/**
 * Generated swaps: any ordered pair of distinct tokens, half of them with the native coin on one
 * side (both ways), sizes log-uniform from $1 to $3M (a few base units up to several times a
 * pool's depth, where the search splits), to the trader or to a fresh account.
 */
export function generateCases(tokens: readonly ShapeToken[], count: number, seed: number) {
  const native = tokens.findIndex((token) => token.native)
  const index = fc.integer({ min: 0, max: tokens.length - 1 })
  const pair = fc
    .oneof(
      fc.tuple(index, index),
      fc.tuple(fc.constant(native), index),
      fc.tuple(index, fc.constant(native)),
    )
    .filter(([a, b]) => a !== b)
  const arbitrary = fc.record({
    pair,
    // Thousandths of a decade: fast-check's doubles crowd the ends of a range.
    milliDecades: fc.integer({ min: 0, max: Math.round(1000 * Math.log10(3_000_000)) }),
    freshRecipient: fc.boolean(),
  })
  return fc
    .sample(arbitrary, { numRuns: count, seed })
    .map(({ pair: [a, b], milliDecades, freshRecipient }): ShapeCase => ({
      from: tokens[a] as ShapeToken,
      to: tokens[b] as ShapeToken,
      usd: 10 ** (milliDecades / 1000),
      freshRecipient,
    }))
}

/** The trader funded and every token approved to the router, once per devnet. */
export async function prepareTrader(
  devnet: OwnDevnet,
  deployment: DexDeployment,
  tokens: readonly ShapeToken[],
): Promise<void> {
  await fundTrader(devnet.client)
  // A block a second, as a chain's blocks each have a time of their own: a V2 pair's price
  // accumulators and a V3 pool's oracle are written on a swap's first block of a second (the
  // model's case; a second swap in one block pays about 10,000 gas less, docs/trading.md).
  await devnet.client.setBlockTimestampInterval({ interval: 1 })
  for (const token of tokens) {
    if (!token.native) await approveAll(devnet.client, token.address, deployment.swapRouter)
  }
}

/** The amount of `from` worth `usd`, at least one base unit. */
export function amountOf(from: ShapeToken, usd: number): bigint {
  const whole = usd / from.usdPrice
  const amount = parseUnits(whole.toFixed(Math.min(from.decimals, 18)), from.decimals)
  return amount > 0n ? amount : 1n
}

/**
 * Quotes and executes one case; undefined where the pools cannot fill it (no route, a 422).
 * The trader holds every token (the deployer's supply), so its input balance never empties.
 */
export async function executeCase(
  devnet: OwnDevnet,
  deployment: DexDeployment,
  shapeCase: ShapeCase,
): Promise<ExecutedShape | undefined> {
  const { from, to } = shapeCase
  const amountIn = amountOf(from, shapeCase.usd)
  const recipient = shapeCase.freshRecipient
    ? privateKeyToAccount(generatePrivateKey()).address
    : trader.address
  const best = await bestRoute({
    network: deployment.network,
    tokenIn: from.address,
    tokenOut: to.address,
    amountIn,
    nativeIn: from.native,
    nativeOut: to.native,
    recipient,
  }).catch((error: unknown) => {
    if (error instanceof Unprocessable) return undefined
    throw error
  })
  if (!best) return undefined
  const block = await devnet.client.getBlock()
  const call = swapRouterCall({
    legs: legsOf(best),
    amountOutMin: 0n,
    recipient,
    deadline: block.timestamp + 3600n,
    nativeIn: from.native,
    nativeOut: to.native,
    legsPayRecipient: best.legsPayRecipient,
  })
  const hash = await devnet.client.sendTransaction({
    account: trader,
    chain: devnet.client.chain,
    to: best.router,
    data: call.data,
    value: call.value,
    gas: 5_000_000n,
  })
  const receipt = await devnet.client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`swap ${hash} reverted (${labelOf(shapeCase)})`)
  return {
    network: deployment.network,
    label: `${labelOf(shapeCase)} ${best.routes.map((route) => route.hops.map((hop) => hop.pool.protocol).join('+')).join(' | ')} [${routeLabel(best.gasShape)}]`,
    shape: best.gasShape,
    estimate: best.gas,
    gasUsed: receipt.gasUsed,
    routes: best.routes.map((route) =>
      route.hops.map(
        (hop) =>
          `${hop.pool.protocol}:${hop.pool.address}:${hop.tokenIn}:${hop.tokenOut}:${hop.pool.protocol === 'v3' ? hop.pool.state.fee : 0}`,
      ),
    ),
    hash,
  }
}

const labelOf = ({ from, to, usd, freshRecipient }: ShapeCase) =>
  `$${usd.toPrecision(3)} ${from.symbol}->${to.symbol}${freshRecipient ? ' (fresh)' : ''}`

function routeLabel(shape: GasShape) {
  return Object.entries(shape)
    .filter(([, count]) => count > 0)
    .map(([part, count]) => `${part} ${count}`)
    .join(', ')
}

/** |estimate − gasUsed| / gasUsed. */
export const relativeError = (executed: ExecutedShape) =>
  Math.abs(Number(executed.estimate - executed.gasUsed)) / Number(executed.gasUsed)

/** Median, 90th percentile and maximum of the relative errors, and how many exceed `bar`. */
export function errorDistribution(executed: readonly ExecutedShape[], bar = 0.05) {
  const errors = executed.map(relativeError).sort((a, b) => a - b)
  const at = (q: number) => errors[Math.min(errors.length - 1, Math.floor(q * errors.length))] ?? 0
  return {
    count: errors.length,
    median: at(0.5),
    p90: at(0.9),
    max: errors.at(-1) ?? 0,
    over: errors.filter((error) => error > bar).length,
  }
}
