import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { shareFairly } from '../../../../lib/trades/fairShare'

// Reference: the budget given one unit at a time, each to the claimant with the least so far
// among those still short of their claim (the smaller claim first on a tie): max-min fairness by
// simulation, not by formula. Compared as the multiset of (claim, allotment), since equal claims
// may take the extra unit in either order.

function unitByUnit(claims: readonly number[], budget: number): number[] {
  const given = claims.map(() => 0)
  for (let unit = 0; unit < budget; unit += 1) {
    let next = -1
    for (const [index, claim] of claims.entries()) {
      if ((given[index] ?? 0) >= claim) continue
      const better =
        next < 0 ||
        (given[index] ?? 0) < (given[next] ?? 0) ||
        ((given[index] ?? 0) === (given[next] ?? 0) && claim < (claims[next] ?? 0))
      if (better) next = index
    }
    if (next < 0) break
    given[next] = (given[next] ?? 0) + 1
  }
  return given
}

const pairs = (claims: readonly number[], given: readonly number[]) =>
  claims.map((claim, index) => `${claim}:${given[index]}`).sort()

describe('shareFairly', () => {
  it('gives what one unit at a time to the least served gives, on random claims and budgets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 400 }),
        (claims, budget) => {
          const claimants = claims.map((claim, index) => [`w${index}`, claim] as const)
          const shares = shareFairly(new Map(claimants), budget)
          const ours = claimants.map(([name]) => shares.get(name) ?? -1)
          expect(pairs(claims, ours)).toEqual(pairs(claims, unitByUnit(claims, budget)))
        },
      ),
      { numRuns: 2000, seed: 3201 },
    )
  })

  it('gives a one-deposit wallet its deposit beside a wallet of 30,000 whatever the budget above 1', () => {
    const shares = shareFairly(
      new Map([
        ['flooded', 30_000],
        ['bystander', 1],
      ]),
      2,
    )
    expect(Object.fromEntries(shares)).toEqual({ bystander: 1, flooded: 1 })
  })
})
