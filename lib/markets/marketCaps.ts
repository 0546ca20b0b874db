import { parseUnits } from 'viem'
import type { MarketStats } from '../db/marketStats'
import type { Project } from '../db/project'
import { valueInUsd } from './usdAmount'

export interface MarketCaps {
  /**
   * Base units: the catalog's circulating supply, else the total supply, never more than the
   * total supply once that is known (a token that burns shrinks both).
   */
  circulatingSupply: bigint
  marketCapE18: bigint
  fullyDilutedE18: bigint
}

/** Market cap (price × circulating supply) and fully diluted cap (price × total supply). */
export function marketCaps(project: Project, market: MarketStats): MarketCaps {
  const totalSupply = market.totalSupply ?? 0n
  const catalogued =
    project.circulatingSupply === undefined
      ? totalSupply
      : parseUnits(project.circulatingSupply, project.decimals)
  // DECISIONS §8.3: what circulates cannot exceed what exists on chain. A total not read yet is
  // shown as 0, "not known" (§6), which caps nothing.
  const circulatingSupply =
    market.totalSupply !== undefined && market.totalSupply < catalogued
      ? market.totalSupply
      : catalogued
  const price = market.priceE18 ?? 0n
  return {
    circulatingSupply,
    marketCapE18: valueInUsd(circulatingSupply, project.decimals, price),
    fullyDilutedE18: valueInUsd(totalSupply, project.decimals, price),
  }
}
