import { balance } from './balance'
import { type Candidate, modelNet, type SearchContext } from './searchContext'

/** Rounds of swaps a local search makes at most. */
const SWAP_ROUNDS = 3
/**
 * Swaps a round balances: those netting most before balancing (cheap, a split's worth of the
 * model each), since balancing (some hundred of the model's route walks) is what costs.
 */
const SWAPS_BALANCED = 4

/**
 * A local search from `start` on the model: a move gives one route's whole input to a path the
 * split leaves out (the brute force's climb, tests/reference/bruteForce.ts); each round the
 * SWAPS_BALANCED moves netting most are balanced and the best kept if it nets more than the
 * split before. Reaches what the margin cannot: a large leg's pool for a deeper one of a dearer
 * fee tier (which pays less for a first unit, more for the leg), a route set two swaps away.
 * Undefined when no move gains.
 */
export function improve(context: SearchContext, start: Candidate): Candidate | undefined {
  let current = start
  let currentNet = modelNet(context, start.indexes, start.shares)
  let improved = false
  for (let round = 0; round < SWAP_ROUNDS; round += 1) {
    let chosen: { candidate: Candidate; net: number } | undefined
    for (const move of swapsOf(context, current).slice(0, SWAPS_BALANCED)) {
      const shares = balance(context, move.indexes, current.shares)
      const net = modelNet(context, move.indexes, shares)
      if (!chosen || net > chosen.net)
        chosen = { candidate: { indexes: move.indexes, shares }, net }
    }
    if (!chosen || chosen.net <= currentNet) break
    current = chosen.candidate
    currentNet = chosen.net
    improved = true
  }
  return improved ? current : undefined
}

/** Every swap of one of the split's routes for a path it leaves out, netting most first. */
function swapsOf(context: SearchContext, current: Candidate): { indexes: number[]; net: number }[] {
  const moves: { indexes: number[]; net: number }[] = []
  current.indexes.forEach((_, replaced) => {
    context.paths.forEach((_, index) => {
      if (current.indexes.includes(index)) return
      const indexes = current.indexes.map((kept, position) =>
        position === replaced ? index : kept,
      )
      moves.push({ indexes, net: modelNet(context, indexes, current.shares) })
    })
  })
  return moves.sort((a, b) => b.net - a.net)
}
