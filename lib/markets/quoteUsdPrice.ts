import { type Address, isAddressEqual, zeroAddress } from 'viem'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { usdDecimals } from './usdDecimals'
import { bestRoute } from '../routing/quote/bestRoute'
import { ONE_USD } from './usdAmount'

export interface QuoteUsdPriceParameters {
  network: NetworkName
  address: Address
  decimals: number
  /**
   * Tokens that may connect a route besides the base tokens (the network's catalog), where the
   * network has V3 pools: a token pooled only with a catalog token (ENS with LINK) is priced
   * through it. All are read (one lens round trip); the search keeps the best few.
   */
  connectorCandidates?: readonly Address[]
}

// A quote of one whole token can move a thin pool (1 WBTC in a $10M pool is 1.3%) and says little
// about a token worth a fraction of a cent; outside this band a second quote uses about $100.
const PROBE_USD = 100n * ONE_USD
const BAND_LOW = ONE_USD
const BAND_HIGH = 1_000n * ONE_USD

/**
 * What the network's DEX pays in its USD stablecoin for `amountIn` of `tokenIn`: the routing
 * engine's best split over its V2 and V3 pools, ranked by output alone (a price, not a trade net
 * of gas), simulated through the router where the network has one and the token's balances can
 * be set, else the pools' own math (lib/routing/quote/bestRoute.ts).
 */
async function usdOut(
  network: NetworkName,
  tokenIn: Address,
  amountIn: bigint,
  connectorCandidates: readonly Address[],
): Promise<bigint> {
  const { usdStablecoin, swapRouter } = loadChainConfig(network)
  const best = await bestRoute({
    network,
    tokenIn,
    tokenOut: usdStablecoin,
    amountIn,
    nativeIn: false,
    nativeOut: false,
    recipient: zeroAddress,
    connectorCandidates,
    maxConnectorCandidates: connectorCandidates.length,
    ignoreGas: true,
    simulate: swapRouter !== undefined,
  })
  return best.amountOut
}

/**
 * The USD price of one whole token (18 decimals): what the network's DEX pays in its USD
 * stablecoin for it, on its best route (usdOut). It is a sell quote, so it includes the pools'
 * fees (the network's V2 fee per V2 hop, the tier's on V3).
 */
export async function quoteUsdPrice({
  network,
  address,
  decimals,
  connectorCandidates = [],
}: QuoteUsdPriceParameters): Promise<bigint> {
  const { usdStablecoin } = loadChainConfig(network)
  if (isAddressEqual(address, usdStablecoin)) return ONE_USD
  const stableScale = 10n ** BigInt(await usdDecimals(network))
  const oneToken = 10n ** BigInt(decimals)
  const candidates = connectorCandidates.filter((token) => !isAddressEqual(token, address))
  const priceOf = async (amountIn: bigint) => {
    const amountOut = await usdOut(network, address, amountIn, candidates)
    return (amountOut * ONE_USD * oneToken) / (stableScale * amountIn)
  }
  const price = await priceOf(oneToken)
  if (price === 0n || (price >= BAND_LOW && price <= BAND_HIGH)) return price
  const probe = (oneToken * PROBE_USD) / price
  return probe > 0n ? priceOf(probe) : price
}
