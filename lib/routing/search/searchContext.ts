import type { RouteGasUnits } from '../../config'
import type { Hop } from '../paths/enumeratePaths'
import { fastRoute, type FastStates } from './fastModel'

/** The search's working figures: the fast model's, in floats (fastModel.ts). */
export interface SearchContext {
  paths: readonly Hop[][]
  amountIn: number
  units: RouteGasUnits
  /** Token1 per gas unit. */
  gasPrice: number
}

/** A set of paths (indexes into the context's) and each one's input, in the model's figures. */
export interface Candidate {
  indexes: number[]
  shares: number[]
}

/**
 * Equal parts of the input the discovery hands out one at a time, each to the route that pays
 * most for it where the earlier parts left the pools (the 5 % grid of §8.1, as a floor); the
 * routes it picks are then balanced (balance.ts).
 */
export const DISCOVERY_PARTS = 20

/** A split's net of gas on the model, its routes in order on one copy of the pools. */
export function modelNet(
  context: SearchContext,
  indexes: readonly number[],
  shares: readonly number[],
): number {
  const states: FastStates = new Map()
  let net = 0
  for (let position = 0; position < shares.length; position += 1) {
    const amount = shares[position] ?? 0
    if (amount <= 0) continue
    const path = context.paths[indexes[position] ?? -1] ?? []
    const route = fastRoute(path, amount, states, true, context.units)
    net += route.amountOut - route.gas * context.gasPrice
  }
  return net
}
