import { type Address, isAddressEqual, zeroAddress } from 'viem'
import { bestAmountOut } from '../chain/bestAmountOut'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { usdDecimals } from './usdDecimals'
import { Unprocessable } from '../errors'
import { bestRoute } from '../swap/bestRoute'
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
 * What the network's DEX pays in its USD stablecoin for `amountIn` of `tokenIn`. With V3 pools
 * configured, the quoting engine's best split over V2 and V3 pools, ranked by output alone (a
 * price, not a trade net of gas) and simulated through the router; a token whose balance the
 * simulation cannot set (no balance slot found) falls back to the V2 routers' getAmountsOut,
 * as on a V2-only network.
 */
async function usdOut(
  network: NetworkName,
  tokenIn: Address,
  amountIn: bigint,
  connectorCandidates: readonly Address[],
): Promise<bigint> {
  const { usdStablecoin, v3, swapRouter } = loadChainConfig(network)
  const v2Quote = () => bestAmountOut({ network, amountIn, tokenIn, tokenOut: usdStablecoin })
  if (!v3 || !swapRouter) return (await v2Quote()).amountOut
  try {
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
    })
    return best.amountOut
  } catch (error) {
    if (!(error instanceof Unprocessable)) throw error
    return (await v2Quote()).amountOut
  }
}

/**
 * The USD price of one whole token (18 decimals): what the network's DEX pays in its USD
 * stablecoin for it, on its best route (usdOut). It is a sell quote, so it includes the pools'
 * fees (0.3% per hop on Uniswap V2, the tier's on V3).
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
