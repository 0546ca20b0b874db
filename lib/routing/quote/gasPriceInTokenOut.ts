import type { Address } from 'viem'
import type { ChainConfig } from '../../config'
import {
  GAS_PRICING_AMOUNT,
  gasPriceInToken1,
  type GasPriceInToken1,
  NO_GAS_PRICE,
} from '../gas/gasModel'
import { type Pool, sameToken } from '../pools/pool'
import { searchSplit } from '../search/searchSplit'

/**
 * Token1 per gas unit: the gas price times what GAS_PRICING_AMOUNT of the wrapped coin pays in
 * token1 on its best single route, ranked by output (gasModel.ts's convention); nothing where
 * no route prices it (gas then left out of the ranking).
 */
export function gasPriceInTokenOut(
  pools: readonly Pool[],
  config: ChainConfig,
  through: readonly Address[],
  tokenOut: Address,
  gasPriceWei: bigint,
): GasPriceInToken1 {
  if (sameToken(config.wrappedNative, tokenOut)) {
    return gasPriceInToken1(gasPriceWei, GAS_PRICING_AMOUNT)
  }
  const priced = searchSplit({
    pools,
    tokenIn: config.wrappedNative,
    tokenOut,
    through,
    amountIn: GAS_PRICING_AMOUNT,
    units: config.gasUnits,
    gasPrice: NO_GAS_PRICE,
    maxRoutes: 1,
  })
  return priced ? gasPriceInToken1(gasPriceWei, priced.amountOut) : NO_GAS_PRICE
}
