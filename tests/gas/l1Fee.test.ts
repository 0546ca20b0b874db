import '../support/env'
import * as fc from 'fast-check'
import {
  type Hex,
  keccak256,
  type TransactionSerializable,
  parseTransaction,
  serializeTransaction,
  toHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { legsOf, swapRouterCall } from '../../lib/chain/swapRouterCall'
import type { DexDeployment } from '../../lib/local/deployDex'
import { NETWORK_ENTRIES } from '../../lib/networks'
import { gasPriceOracleAbi } from '../../lib/routing/gas/l1Fee'
import { bestRoute } from '../../lib/routing/quote/bestRoute'
import { trader } from '../reference/devnetTrader'
import type { OwnDevnet } from '../reference/ownDevnet'
import { amountOf, generateCases, prepareTrader, shapeTokens } from './executeShapes'
import { copyDevnets } from './runShapes'

// DECISIONS §10.2 on the L2-shaped network (`base`, whose table entry has `l1Fee`): its devnet
// carries a GasPriceOracle at the OP Stack predeploy (lib/local/GasPriceOracle.sol, set at
// startup), and a quote adds the oracle's L1 fee of the transaction it quotes to
// `gasCostToken1`. Generated swaps quoted and then sent as a wallet sends them (its own nonce,
// fee caps, limit, deadline and slippage minimum): the quoted L1 fee against the oracle's
// getL1Fee of the transaction actually sent. A new seed each run (printed; L1_FEE_TEST_SEED
// replays it).

const NETWORK = 'base'
const SEED = Number(process.env.L1_FEE_TEST_SEED ?? Date.now() % 1_000_000)
const SWAPS = 12
const ENTRY = NETWORK_ENTRIES[NETWORK]
const L1_FEE = ENTRY.l1Fee

/** The Ecotone formula of the OP Stack's GasPriceOracle, as its source writes it. */
function ecotoneFee(bytes: Uint8Array): bigint {
  if (!L1_FEE) throw new Error('base has no l1Fee entry')
  const { l1BaseFeeWei, blobBaseFeeWei, baseFeeScalar, blobBaseFeeScalar } = L1_FEE.devnet
  const gasUsed = bytes.reduce((sum, byte) => sum + (byte === 0 ? 4n : 16n), 68n * 16n)
  const scaled =
    BigInt(baseFeeScalar) * 16n * l1BaseFeeWei + BigInt(blobBaseFeeScalar) * blobBaseFeeWei
  return (gasUsed * scaled) / (16n * 10n ** 6n)
}

describe('the L1 data fee of an L2-shaped network (DECISIONS §10.2)', () => {
  let devnet: OwnDevnet
  let deployment: DexDeployment
  const oracleFee = (data: Hex) =>
    devnet.client.readContract({
      address: L1_FEE?.oracle ?? '0x',
      abi: gasPriceOracleAbi,
      functionName: 'getL1Fee',
      args: [data],
    })

  beforeAll(async () => {
    console.log(`L1 fee: seed ${SEED} (L1_FEE_TEST_SEED replays it)`)
    deployment = inject('deployments')[NETWORK]
    const copies = await copyDevnets([deployment])
    devnet = copies.get(deployment) as OwnDevnet
  }, 300_000)

  afterAll(async () => {
    await devnet?.stop()
  })

  it('has the oracle at the predeploy, charging the Ecotone formula to the wei on any bytes', async () => {
    expect(L1_FEE?.oracle).toBe('0x420000000000000000000000000000000000000F')
    // Zero bytes weigh 4 and others 16: runs of each, and random bytes, up to a large calldata.
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 3_000 }),
      fc.array(fc.constantFrom(0, 1, 255), { maxLength: 3_000 }).map((a) => Uint8Array.from(a)),
    )
    for (const sample of fc.sample(bytes, { numRuns: 40, seed: SEED })) {
      expect(await oracleFee(toHex(sample))).toBe(ecotoneFee(sample))
    }
  })

  it('adds to gasCostToken1 the oracle’s L1 fee of the transaction the wallet then sends', async () => {
    const tokens = shapeTokens(deployment)
    await prepareTrader(devnet, deployment, tokens)
    const rows: string[] = []
    let sent = 0
    for (const shape of generateCases(tokens, SWAPS, SEED)) {
      const amountIn = amountOf(shape.from, shape.usd)
      const best = await bestRoute({
        network: NETWORK,
        tokenIn: shape.from.address,
        tokenOut: shape.to.address,
        amountIn,
        nativeIn: shape.from.native,
        nativeOut: shape.to.native,
        recipient: trader.address,
      }).catch(() => undefined)
      if (!best) continue
      const l1Fee = best.l1Fee
      expect(l1Fee, 'a base quote carries its L1 fee').toBeDefined()
      if (!l1Fee) continue
      // gasCostToken1 is the L2 gas's cost plus the L1 fee's, in token1.
      expect(best.gasCostToken1).toBeGreaterThanOrEqual(l1Fee.token1)
      // As a wallet sends it: its own nonce, fee caps, limit, deadline and 0.5 % slippage.
      const block = await devnet.client.getBlock()
      const call = swapRouterCall({
        legs: legsOf(best),
        amountOutMin: (best.amountOut * 9_950n) / 10_000n,
        recipient: trader.address,
        deadline: block.timestamp + 1_800n,
        nativeIn: shape.from.native,
        nativeOut: shape.to.native,
        legsPayRecipient: best.legsPayRecipient,
      })
      const request = await devnet.client.prepareTransactionRequest({
        account: trader,
        chain: devnet.client.chain,
        to: best.router,
        data: call.data,
        value: call.value,
        gas: (best.gas * 3n) / 2n + 100_000n,
      })
      const raw = await trader.signTransaction(request as TransactionSerializable)
      const hash = await devnet.client.sendRawTransaction({ serializedTransaction: raw })
      const receipt = await devnet.client.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      expect(hash).toBe(keccak256(raw))
      const { r: _r, s: _s, v: _v, yParity: _y, ...unsigned } = parseTransaction(raw)
      const charged = await oracleFee(serializeTransaction(unsigned))
      const ofSigned = await oracleFee(raw)
      rows.push(
        `${shape.from.symbol}->${shape.to.symbol} ${best.routes.length} route(s): quoted ${l1Fee.wei}, oracle on the sent transaction ${charged} (${((100 * Number(l1Fee.wei - charged)) / Number(charged)).toFixed(2)} %), on its signed bytes ${ofSigned}`,
      )
      // The bytes the quote stands in for (nonce, fee caps, limit, deadline, minimum) move the
      // fee by 12 or 16 L1 gas each of about 10,000: a few of them, within 1.5 %.
      const off = Number(l1Fee.wei - charged) / Number(charged)
      expect(Math.abs(off), rows.at(-1)).toBeLessThanOrEqual(0.015)
      sent += 1
    }
    console.log(rows.join('\n'))
    expect(sent).toBeGreaterThanOrEqual(SWAPS / 2)
  }, 300_000)

  it('adds nothing on an L1 (ethereum has no l1Fee entry)', () => {
    expect(NETWORK_ENTRIES.ethereum.l1Fee).toBeUndefined()
  })
})
