import { Fraction } from '@uniswap/sdk-core'
import fc from 'fast-check'
import { getAddress, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  listsFirst,
  looksLike,
  posesAsCounterparty,
  tokenScale,
} from '../../../../lib/trades/classifyTransfers'

// DECISIONS §9.1, §10.4. Dust, against exact fractions of the Uniswap SDK (not our arithmetic): a
// deposit of `value` base units at `priceE18` USD a whole token is dust when value × price /
// 10^decimals is below the threshold; the floor must be the least value that is not, and the same
// for the amount listed first (DEPOSIT_FIRST_USD).

const dustFloor = (
  token: { priceE18?: bigint; dustMinimum?: string },
  decimals: number,
  dustUsd: string,
) => tokenScale(token, decimals, { dustUsd, firstUsd: '1' }).floor

const isDustByFractions = (value: bigint, priceE18: bigint, decimals: number, dustUsd: string) =>
  new Fraction((value * priceE18).toString(), (10n ** BigInt(decimals + 18)).toString()).lessThan(
    new Fraction(parseUnits(dustUsd, 18).toString(), (10n ** 18n).toString()),
  )

describe('dustFloor', () => {
  it('is the least deposit worth the threshold at the catalog price, on random prices, decimals and thresholds', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 36 }),
        fc.constantFrom('0.01', '0.05', '1', '0.000001', '25.5'),
        (priceE18, decimals, dustUsd) => {
          const floor = dustFloor({ priceE18 }, decimals, dustUsd)
          expect(isDustByFractions(floor, priceE18, decimals, dustUsd)).toBe(false)
          if (floor > 0n) {
            expect(isDustByFractions(floor - 1n, priceE18, decimals, dustUsd)).toBe(true)
          }
        },
      ),
      { numRuns: 3000, seed: 3202 },
    )
  })

  it('makes 1 unit of a 6-decimals coin at 1 USD dust and 0.01 of it not', () => {
    const floor = dustFloor({ priceE18: 10n ** 18n }, 6, '0.01')
    expect(floor).toBe(10_000n)
  })

  it('lists an unpriced token from its catalog minimum, or else from one base unit, flagged', () => {
    expect(tokenScale({ dustMinimum: '0.5' }, 18, { dustUsd: '0.01', firstUsd: '1' })).toEqual({
      floor: 5n * 10n ** 17n,
      unpriced: true,
    })
    // No minimum: nothing a real deposit can be is hidden (0.01 whole WBTC was about 900 USD).
    expect(dustFloor({}, 8, '0.01')).toBe(1n)
    expect(dustFloor({ priceE18: 0n }, 8, '0.01')).toBe(1n)
    expect(dustFloor({ dustMinimum: '0' }, 6, '0.01')).toBe(1n)
    // A price wins over the minimum: the minimum is for tokens without one.
    expect(dustFloor({ priceE18: 2n * 10n ** 18n, dustMinimum: '5' }, 6, '0.01')).toBe(5_000n)
  })

  it('lists first exactly the deposits worth DEPOSIT_FIRST_USD, on random prices and decimals, and every unpriced one', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 36 }),
        fc.bigInt({ min: 0n, max: 10n ** 40n }),
        (priceE18, decimals, value) => {
          const scale = tokenScale({ priceE18 }, decimals, { dustUsd: '0.01', firstUsd: '1' })
          expect(listsFirst(value, scale)).toBe(!isDustByFractions(value, priceE18, decimals, '1'))
        },
      ),
      { numRuns: 3000, seed: 3903 },
    )
    expect(listsFirst(1n, tokenScale({}, 18, { dustUsd: '0.01', firstUsd: '1' }))).toBe(true)
  })
})

describe('look-alikes', () => {
  const paid = getAddress('0x4eb7a1b2c3d4e5f60718293a4b5c6d7e8f9082a3')
  const poser = getAddress('0x4eb70000000000000000000000000000000082a3')

  it('takes another address with the same first and last four hex digits for a look-alike', () => {
    expect(looksLike(poser, paid)).toBe(true)
    expect(looksLike(paid, paid)).toBe(false)
    expect(looksLike(getAddress('0x4eb80000000000000000000000000000000082a3'), paid)).toBe(false)
  })

  // Reference by construction: a copy of an address with some of its 40 hex digits changed (each
  // to another digit), in any letter case, looks like it exactly when a digit changed and none of
  // the changed ones is among the first or the last four.
  it('takes a copy for a look-alike exactly when only digits between the first and last four changed, on random edits', () => {
    const nibble = fc.integer({ min: 0, max: 15 })
    fc.assert(
      fc.property(
        fc.array(nibble, { minLength: 40, maxLength: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 39 }), fc.integer({ min: 1, max: 15 })), {
          maxLength: 6,
        }),
        fc.boolean(),
        (digits, edits, checksummed) => {
          const copy = [...digits]
          for (const [at, by] of edits) copy[at] = ((copy[at] ?? 0) + by) % 16
          const changed = copy.map((digit, at) => digit !== digits[at])
          const hex = (nibbles: number[]) =>
            `0x${nibbles.map((digit) => digit.toString(16)).join('')}` as const
          const [original, other] = [hex(digits), hex(copy)]
          const expected =
            changed.some(Boolean) && !changed.some((edit, at) => edit && (at < 4 || at >= 36))
          expect(looksLike(checksummed ? getAddress(other) : other, original)).toBe(expected)
          expect(looksLike(original, checksummed ? getAddress(other) : other)).toBe(expected)
        },
      ),
      { numRuns: 3000, seed: 3203 },
    )
  })

  it('refuses a sender that looks like an address the wallet sent to, not that address itself', () => {
    const sentTo = new Set([paid.toLowerCase()])
    expect(posesAsCounterparty(poser, sentTo)).toBe(true)
    expect(posesAsCounterparty(paid, sentTo)).toBe(false)
    expect(posesAsCounterparty(poser, new Set())).toBe(false)
    // Paid both: the sender still looks like another address the wallet paid (the rule's letter).
    expect(posesAsCounterparty(poser, new Set([paid.toLowerCase(), poser.toLowerCase()]))).toBe(
      true,
    )
  })
})
