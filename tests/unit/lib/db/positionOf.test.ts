import { describe, expect, it } from 'vitest'
import { positionOf } from '../../../../lib/db/tradeTail'

// The n-th live trade's position when the positions in `holes` were removed (a reorganisation's
// orphaned deposits): checked against the positions listed one by one.
describe('positionOf', () => {
  const live = (last: number, holes: number[]) =>
    Array.from({ length: last }, (_, index) => index + 1).filter((p) => !holes.includes(p))

  it.each([
    [10, []],
    [10, [1]],
    [10, [2, 4]],
    [10, [3, 4, 5]],
    [12, [1, 2, 11, 12]],
  ])('finds every live position of 1..%i without %j', (last, holes) => {
    const expected = live(last, holes)

    expect(expected.map((_, index) => positionOf(index + 1, holes))).toEqual(expected)
  })
})
