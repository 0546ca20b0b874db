import { readContract } from 'viem/actions'
import { type Address, erc20Abi, isAddressEqual } from 'viem'
import { bestAmountOut } from '../chain/bestAmountOut'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadChainConfig, type NetworkName } from '../config'
import { ONE_USD } from './usdAmount'

export interface QuoteUsdPriceParameters {
  network: NetworkName
  address: Address
  decimals: number
}

// A quote of one whole token can move a thin pool (1 WBTC in a $10M pool is 1.3%) and says little
// about a token worth a fraction of a cent; outside this band a second quote uses about $100.
const PROBE_USD = 100n * ONE_USD
const BAND_LOW = ONE_USD
const BAND_HIGH = 1_000n * ONE_USD

const stablecoinDecimals = new Map<NetworkName, Promise<number>>()

function usdDecimals(network: NetworkName): Promise<number> {
  let decimals = stablecoinDecimals.get(network)
  if (!decimals) {
    decimals = onChain(network, () =>
      readContract(publicClient(network), {
        address: loadChainConfig(network).usdStablecoin,
        abi: erc20Abi,
        functionName: 'decimals',
      }),
    )
    decimals.catch(() => stablecoinDecimals.delete(network))
    stablecoinDecimals.set(network, decimals)
  }
  return decimals
}

/**
 * The USD price of one whole token (18 decimals): what the network's DEX pays in its USD
 * stablecoin for it, on the better of the direct path and the path via the wrapped native coin.
 * It is a sell quote, so it includes the pools' fee (0.3% per hop on Uniswap V2).
 */
export async function quoteUsdPrice({
  network,
  address,
  decimals,
}: QuoteUsdPriceParameters): Promise<bigint> {
  const { usdStablecoin } = loadChainConfig(network)
  if (isAddressEqual(address, usdStablecoin)) return ONE_USD
  const stableScale = 10n ** BigInt(await usdDecimals(network))
  const oneToken = 10n ** BigInt(decimals)
  const priceOf = async (amountIn: bigint) => {
    const { amountOut } = await bestAmountOut({
      network,
      amountIn,
      tokenIn: address,
      tokenOut: usdStablecoin,
    })
    return (amountOut * ONE_USD * oneToken) / (stableScale * amountIn)
  }
  const price = await priceOf(oneToken)
  if (price === 0n || (price >= BAND_LOW && price <= BAND_HIGH)) return price
  const probe = (oneToken * PROBE_USD) / price
  return probe > 0n ? priceOf(probe) : price
}
