import { CurrencyAmount, Token } from '@uniswap/sdk-core'
import { Pair } from '@uniswap/v2-sdk'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { v2AmountOut, v2SwapExactIn } from '../../../../../lib/routing/pools/v2Pool'

// Reference: the Uniswap V2 SDK's Pair.getOutputAmount (fee-on-transfer taxes off).
const TOKEN_A = new Token(1, '0x0000000000000000000000000000000000000001', 18)
const TOKEN_B = new Token(1, '0x0000000000000000000000000000000000000002', 18)

describe('v2AmountOut', () => {
  it('pays what the SDK Pair.getOutputAmount pays, on random reserves and amounts', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: (1n << 112n) - 1n }),
        fc.bigInt({ min: 1n, max: (1n << 112n) - 1n }),
        fc.bigInt({ min: 1n, max: 1n << 100n }),
        fc.boolean(),
        (reserve0, reserve1, amountIn, zeroForOne) => {
          const pair = new Pair(
            CurrencyAmount.fromRawAmount(TOKEN_A, reserve0.toString()),
            CurrencyAmount.fromRawAmount(TOKEN_B, reserve1.toString()),
          )
          const ours = v2SwapExactIn({ reserve0, reserve1, feeBps: 30 }, zeroForOne, amountIn)
          let reference = 0n
          try {
            const [out] = pair.getOutputAmount(
              CurrencyAmount.fromRawAmount(zeroForOne ? TOKEN_A : TOKEN_B, amountIn.toString()),
              false,
            )
            reference = BigInt(out.quotient.toString())
          } catch {
            // The SDK refuses a zero output (InsufficientInputAmountError): ours says 0.
          }
          expect(ours).toBe(reference)
        },
      ),
      { numRuns: 3000 },
    )
  })

  it("takes PancakeSwap V2's 0.25 % fee when told", () => {
    expect(v2AmountOut(10_000n, 1_000_000n, 1_000_000n, 25)).toBe(
      (10_000n * 9975n * 1_000_000n) / (1_000_000n * 10_000n + 10_000n * 9975n),
    )
    expect(v2AmountOut(0n, 1n, 1n, 30)).toBe(0n)
  })
})
