import type { Address } from 'viem'
import type { NetworkName } from '../../networkNames'
import { type GasPriceInToken1, NO_GAS_PRICE } from '../gas/gasModel'
import type { Hop } from '../paths/enumeratePaths'
import { type Pool, sameToken } from '../pools/pool'
import { pageTicks } from '../providers/readPools'
import type { PricedSplit } from '../search/priceSplit'
import { searchSplit } from '../search/searchSplit'
import { gasPriceInTokenOut } from './gasPriceInTokenOut'
import type { Market } from './readMarket'

/** Rounds of paging at most: each reads on the pools a chosen split ran to the edge of. */
export const MAX_PAGE_ROUNDS = 2

/** A split the search chose, with the gas price in tokenOut it was ranked by. */
export interface RoutePlan {
  split: PricedSplit
  gasPrice: GasPriceInToken1
}

export interface RoutePlannerSides {
  network: NetworkName
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  ignoreGas?: boolean
}

/** The split search run on the market's pools, as paged so far. */
export class RoutePlanner {
  private pools: readonly Pool[]
  /** The gas price in tokenOut is the same for every plan on the same pools: worked out once. */
  private gasPriceOn: { pools: readonly Pool[]; gasPrice: GasPriceInToken1 } | undefined

  constructor(
    private readonly market: Market,
    private readonly sides: RoutePlannerSides,
  ) {
    this.pools = market.pools
  }

  /** The best split over the hops `allowHop` allows (all by default), on `maxRoutes` at most. */
  plan(allowHop?: (hop: Hop) => boolean, maxRoutes?: number): RoutePlan | undefined {
    const gasPrice = this.gasPrice()
    const { tokenIn, tokenOut, amountIn } = this.sides
    const split = searchSplit({
      pools: this.pools,
      tokenIn,
      tokenOut,
      through: this.market.through,
      amountIn,
      units: this.market.config.gasUnits,
      gasPrice,
      ...(allowHop && { allowHop }),
      ...(maxRoutes && { maxRoutes }),
    })
    return split && { split, gasPrice }
  }

  /**
   * The best split, read on where it runs a V3 pool to the edge of the ticks read: those pools
   * paged (pageTicks, a round trip each, at most MAX_PAGE_ROUNDS) and the search run again.
   */
  async planPaged(): Promise<RoutePlan | undefined> {
    let best = this.plan()
    for (let round = 0; best && !best.split.exact && round < MAX_PAGE_ROUNDS; round += 1) {
      await this.pageEdges(best.split)
      best = this.plan()
    }
    return best
  }

  /** The V3 pools `split` ran to the edge of, read on the way it went. */
  private async pageEdges(split: PricedSplit): Promise<void> {
    const edges = split.routes.flatMap((route) =>
      route.hops.flatMap((hop) =>
        !hop.exact && hop.pool.protocol === 'v3'
          ? [{ pool: hop.pool, up: !sameToken(hop.pool.token0, hop.tokenIn) }]
          : [],
      ),
    )
    const { network } = this.sides
    const paged = await pageTicks({ network, pages: edges, blockNumber: this.market.blockNumber })
    const byAddress = new Map(paged.map((pool) => [pool.address.toLowerCase(), pool]))
    this.pools = this.pools.map((pool) => byAddress.get(pool.address.toLowerCase()) ?? pool)
  }

  private gasPrice(): GasPriceInToken1 {
    if (this.gasPriceOn?.pools !== this.pools) {
      const { config, through, gasPriceWei } = this.market
      this.gasPriceOn = {
        pools: this.pools,
        gasPrice: this.sides.ignoreGas
          ? NO_GAS_PRICE
          : gasPriceInTokenOut(this.pools, config, through, this.sides.tokenOut, gasPriceWei),
      }
    }
    return this.gasPriceOn.gasPrice
  }
}
