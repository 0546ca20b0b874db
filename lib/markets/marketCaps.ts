import { parseUnits } from 'viem'
import type { MarketStats } from '../db/marketStats'
import type { Project } from '../db/project'
import { valueInUsd } from './usdAmount'

export interface MarketCaps {
  /** Base units: the catalog's circulating supply, else the total supply, else 0. */
  circulatingSupply: bigint
  marketCapE18: bigint
  fullyDilutedE18: bigint
}

/** Market cap (price × circulating supply) and fully diluted cap (price × total supply). */
export function marketCaps(project: Project, market: MarketStats): MarketCaps {
  const totalSupply = market.totalSupply ?? 0n
  const circulatingSupply =
    project.circulatingSupply === undefined
      ? totalSupply
      : parseUnits(project.circulatingSupply, project.decimals)
  const price = market.priceE18 ?? 0n
  return {
    circulatingSupply,
    marketCapE18: valueInUsd(circulatingSupply, project.decimals, price),
    fullyDilutedE18: valueInUsd(totalSupply, project.decimals, price),
  }
}
