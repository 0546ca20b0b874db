import type { RouteGasUnits } from '../../config'
import type { GasPriceInToken1 } from '../gas/gasModel'
import type { Hop } from '../paths/enumeratePaths'
import { complete } from './complete'
import { type PricedSplit, priceSplit } from './priceSplit'
import type { Candidate, SearchContext } from './searchContext'

/**
 * Rounds of completion (complete) on the best split found: each opens the unused route paying
 * most at the margin where the split left the pools, beside the split's routes or in place of
 * one, and balances again.
 */
const COMPLETION_ROUNDS = 4

/** What a candidate is priced exactly on: the pools as read, the input in base units, the gas. */
export interface ExactTerms {
  paths: readonly Hop[][]
  amountIn: bigint
  units: RouteGasUnits
  gasPrice: GasPriceInToken1
}

/**
 * The search's candidates priced exactly (priceSplit: every route in the router's order on one
 * copy of the pools, so routes sharing a pool are priced together), and the best of them: the
 * one netting most of gas, the earliest on a tie.
 */
export class SplitRanking {
  best: PricedSplit | undefined
  bestSet: Candidate | undefined
  private readonly priced: { candidate: Candidate; split: PricedSplit }[] = []

  constructor(
    private readonly context: SearchContext,
    private readonly terms: ExactTerms,
    private readonly maxRoutes: number,
  ) {}

  /** The whole input over one path: the best where it pays anything and nets more. */
  offerSingle(index: number): void {
    const priced = this.price([index], [1])
    if (priced.amountOut > 0n && (!this.best || priced.net > this.best.net)) {
      this.best = priced
      this.bestSet = { indexes: [index], shares: [this.context.amountIn] }
    }
  }

  /** A candidate (its routes given nothing left out), the best where it nets more. */
  offer(candidate: Candidate): void {
    const indexes = candidate.indexes.filter((_, position) => (candidate.shares[position] ?? 0) > 0)
    const shares = candidate.shares.filter((share) => share > 0)
    if (indexes.length === 0) return
    const priced = this.price(indexes, shares)
    this.priced.push({ candidate: { indexes, shares }, split: priced })
    if (this.best && priced.net <= this.best.net) return
    this.best = priced
    this.bestSet = { indexes, shares }
  }

  /**
   * The best split completed (complete): a route it left out that pays more at the margin than
   * its own routes opened, round after round while that wins (the discoveries hand out 5 % parts,
   * too coarse for a thin pool worth 1 %).
   */
  completeBest(): void {
    for (let round = 0; round < COMPLETION_ROUNDS && this.bestSet; round += 1) {
      const completed = complete(this.context, this.bestSet, this.maxRoutes)
      if (!completed) break
      const before = this.best
      this.offer(completed)
      if (this.best === before) break
    }
  }

  /** The first `count` distinct sets of several routes offered, netting most first. */
  bestSplits(count: number): Candidate[] {
    return this.bestOffered(count).map((entry) => entry.candidate)
  }

  /** The same sets as bestSplits, as they were priced. */
  bestPricedSplits(count: number): PricedSplit[] {
    return this.bestOffered(count).map((entry) => entry.split)
  }

  private bestOffered(count: number): { candidate: Candidate; split: PricedSplit }[] {
    const ranked = this.priced
      .filter((entry) => entry.candidate.indexes.length > 1)
      .sort((a, b) => (a.split.net === b.split.net ? 0 : a.split.net > b.split.net ? -1 : 1))
    const seen = new Set<string>()
    const chosen: { candidate: Candidate; split: PricedSplit }[] = []
    for (const entry of ranked) {
      const key = [...entry.candidate.indexes].sort((a, b) => a - b).join()
      if (seen.has(key)) continue
      seen.add(key)
      chosen.push(entry)
      if (chosen.length >= count) break
    }
    return chosen
  }

  private price(indexes: readonly number[], shares: readonly number[]): PricedSplit {
    const { paths, amountIn, units, gasPrice } = this.terms
    const amounts = amountsOf(amountIn, shares)
    return priceSplit(
      indexes.map((index, position) => ({
        hops: paths[index] ?? [],
        amountIn: amounts[position] ?? 0n,
      })),
      units,
      gasPrice,
    )
  }
}

/** Base units of `amountIn` in proportion to `shares` (floored; the largest takes the rest). */
function amountsOf(amountIn: bigint, shares: readonly number[]): bigint[] {
  const total = shares.reduce((sum, share) => sum + share, 0)
  if (total <= 0) return shares.map(() => 0n)
  const scale = 2 ** 40
  const amounts = shares.map(
    (share) => (amountIn * BigInt(Math.floor((share / total) * scale))) / BigInt(scale),
  )
  let largest = 0
  shares.forEach((share, position) => {
    if (share > (shares[largest] ?? 0)) largest = position
  })
  amounts[largest] =
    (amounts[largest] ?? 0n) + amountIn - amounts.reduce((sum, amount) => sum + amount, 0n)
  return amounts
}
