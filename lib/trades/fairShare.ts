/**
 * Shares `budget` units among claimants by water-filling (DECISIONS §9.1, fair share per wallet):
 * each gets what it asks or an equal share of what is left, whichever is less, the smallest
 * claims served first, so no claim, however large, takes from one at or below the equal share.
 * What the rounding leaves goes one unit each to the claims served first. Returns each claimant's
 * allotment (every claimant present; none exceeds its claim; the sum is min(budget, total)).
 */
export function shareFairly<Claimant>(
  claims: ReadonlyMap<Claimant, number>,
  budget: number,
): Map<Claimant, number> {
  const ordered = [...claims.entries()].sort((a, b) => a[1] - b[1])
  const allotted = new Map<Claimant, number>()
  let left = Math.max(0, budget)
  for (const [index, [claimant, claim]] of ordered.entries()) {
    const share = Math.ceil(left / (ordered.length - index))
    const given = Math.min(Math.max(0, claim), share)
    allotted.set(claimant, given)
    left -= given
  }
  return allotted
}
