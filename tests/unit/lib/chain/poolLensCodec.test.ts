import fc from 'fast-check'
import { decodeFunctionResult, encodeFunctionData, encodeFunctionResult, getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { poolLensAbi } from '../../../../lib/chain/poolLens'
import {
  decodeLensPage,
  decodeLensRead,
  encodeLensPage,
  encodeLensRead,
} from '../../../../lib/chain/poolLensCodec'

// The lens's calls and answers by their fixed layouts (lib/chain/poolLensCodec.ts), against
// viem's generic ABI coder, on generated calls and answers: equal in every field.

const SEED = 3301
const RUNS = 300

const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => getAddress(`0x${Buffer.from(bytes).toString('hex')}`))
const int24 = fc.integer({ min: -(2 ** 23), max: 2 ** 23 - 1 })
const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n })
const int128 = fc.bigInt({ min: -(2n ** 127n), max: 2n ** 127n - 1n })
/** Ticks and their liquidity nets, one array each, of one length (as the lens answers them). */
const tickArrays = fc.array(fc.tuple(int24, int128), { maxLength: 120 }).map((ticks) => ({
  ticks: ticks.map(([index]) => index),
  liquidityNets: ticks.map(([, net]) => net),
}))

const poolState = fc
  .record({
    pool: address,
    token0: address,
    reserve0: uint256,
    reserve1: uint256,
    tick: int24,
    tickSpacing: int24,
    scannedLower: int24,
    scannedUpper: int24,
  })
  .chain((head) => tickArrays.map((arrays) => ({ ...head, ...arrays })))

const pageState = fc
  .record({ scanned: int24 })
  .chain((head) => tickArrays.map((arrays) => ({ ...head, ...arrays })))

describe('the pool lens codec', () => {
  it('encodes read(lookups, words, ticks) as viem does', () => {
    const lookup = fc.record({
      version: fc.integer({ min: 0, max: 255 }),
      factory: address,
      tokenA: address,
      tokenB: address,
      fee: fc.integer({ min: 0, max: 2 ** 24 - 1 }),
    })
    fc.assert(
      fc.property(
        fc.array(lookup, { maxLength: 30 }),
        uint256,
        uint256,
        (lookups, words, ticks) => {
          expect(encodeLensRead(lookups, words, ticks)).toBe(
            encodeFunctionData({
              abi: poolLensAbi,
              functionName: 'read',
              args: [lookups, words, ticks],
            }),
          )
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('encodes page(pages, words, maxTicks) as viem does', () => {
    const page = fc.record({ pool: address, tickSpacing: int24, start: int24, up: fc.boolean() })
    fc.assert(
      fc.property(fc.array(page, { maxLength: 30 }), uint256, uint256, (pages, words, ticks) => {
        expect(encodeLensPage(pages, words, ticks)).toBe(
          encodeFunctionData({
            abi: poolLensAbi,
            functionName: 'page',
            args: [pages, words, ticks],
          }),
        )
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it("decodes read's answer to what viem decodes, field for field", () => {
    fc.assert(
      fc.property(fc.array(poolState, { maxLength: 12 }), (states) => {
        const data = encodeFunctionResult({
          abi: poolLensAbi,
          functionName: 'read',
          result: states,
        })
        expect(decodeLensRead(data)).toStrictEqual(
          decodeFunctionResult({ abi: poolLensAbi, functionName: 'read', data }),
        )
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it("decodes page's answer to what viem decodes, field for field", () => {
    fc.assert(
      fc.property(fc.array(pageState, { maxLength: 12 }), (states) => {
        const data = encodeFunctionResult({
          abi: poolLensAbi,
          functionName: 'page',
          result: states,
        })
        expect(decodeLensPage(data)).toStrictEqual(
          decodeFunctionResult({ abi: poolLensAbi, functionName: 'page', data }),
        )
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('refuses an answer cut short where viem refuses it too, and one not in hex words', () => {
    fc.assert(
      fc.property(
        fc.array(poolState, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        (states, cutAt) => {
          const data = encodeFunctionResult({
            abi: poolLensAbi,
            functionName: 'read',
            result: states,
          })
          const words = (data.length - 2) / 64
          const cut: `0x${string}` = `0x${data.slice(2, 2 + (cutAt % words) * 64)}`
          expect(() =>
            decodeFunctionResult({ abi: poolLensAbi, functionName: 'read', data: cut }),
          ).toThrow()
          expect(() => decodeLensRead(cut)).toThrow(/pool lens/)
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
    expect(() => decodeLensRead('0x1234')).toThrow(/not whole 32-byte words/)
    expect(() => decodeLensRead(`0x${'zz'.repeat(32)}`)).toThrow(/not hex/)
  })
})
