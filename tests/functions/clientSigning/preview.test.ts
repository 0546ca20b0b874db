import '../../support/env'
import fc from 'fast-check'
import { type Address, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../../lib/constants'
import type { NetworkName } from '../../../lib/networkNames'
import type { Preview } from '../../../lib/preview/previewSequence'
import { type PrepareOperation, prepareRoute } from '../../support/clientSigningRoutes'
import { deployment, fundedAccount } from '../../support/devnetAccounts'
import type { PreparedTransaction } from '../../support/signPrepared'
import { randomAddress } from '../../support/marketFixtures'
import { signInWithWallet } from '../../support/walletSignIn'
import { measuredChanges, mine, minedAlone, previewChanges } from '../../support/previewChecks'

// A preview of every transaction (DECISIONS §10.2), judged by the chain: each prepared sequence
// is signed and mined at the state it was previewed on, and every balance the preview says
// changes, and every balance of the wallet and the recipient in the moved tokens, is read before
// and after. The preview must equal the measured changes exactly (the gas fee set apart).
// Superseded for the balance changes and the issues by previewGenerated.test.ts (over 200
// generated prepares of both swap types, permits, short balances and allowances, reverting calls,
// on devnet copies of its own); kept for what that file does not check: each transaction's
// simulated gas against its receipt's, on the shared devnets.

interface Prepared {
  transactions: PreparedTransaction[]
  preview: Preview
}

type Shape =
  | { kind: 'swap'; network: NetworkName; from: string; to: string; amount: string }
  | { kind: 'transfer'; network: NetworkName; token: string; amount: string }

const SHAPES: Shape[] = [
  { kind: 'swap', network: 'ethereum', from: 'LINK', to: 'USDC', amount: '3' },
  { kind: 'swap', network: 'ethereum', from: 'USDC', to: 'UNI', amount: '150' },
  { kind: 'swap', network: 'ethereum', from: 'NATIVE', to: 'LINK', amount: '0.2' },
  { kind: 'swap', network: 'ethereum', from: 'UNI', to: 'NATIVE', amount: '7' },
  { kind: 'swap', network: 'altchain', from: 'NATIVE', to: 'CAKE', amount: '1.5' },
  { kind: 'swap', network: 'altchain', from: 'CAKE', to: 'NATIVE', amount: '4' },
  { kind: 'swap', network: 'ethereum', from: 'FOT', to: 'USDC', amount: '20' },
  { kind: 'swap', network: 'altchain', from: 'NATIVE', to: 'FOT', amount: '0.5' },
  { kind: 'transfer', network: 'ethereum', token: 'LINK', amount: '2.5' },
  { kind: 'transfer', network: 'altchain', token: 'NATIVE', amount: '0.75' },
  { kind: 'transfer', network: 'ethereum', token: 'FOT', amount: '10' },
]

function side(network: NetworkName, symbol: string): { address: Address; decimals: number } {
  if (symbol === 'NATIVE') return { address: NATIVE_COIN, decimals: 18 }
  const dex = deployment(network)
  if (symbol === 'USDC') return { address: dex.usdStablecoin, decimals: 6 }
  const token = [...dex.tokens, ...dex.zoo].find((candidate) => candidate.symbol === symbol)
  if (!token) throw new Error(`no ${symbol} on ${network}`)
  return { address: token.address, decimals: token.decimals }
}

/** The amount scaled by `percent` (1..100), within the token's decimals. */
function scaled(amount: string, decimals: number, percent: number): bigint {
  return (parseUnits(amount, decimals) * BigInt(percent)) / 100n || 1n
}

function operationOf(shape: Shape): PrepareOperation {
  if (shape.kind === 'transfer') return `transfer/tokens/${shape.network}`
  const native = shape.from === 'NATIVE' || shape.to === 'NATIVE'
  return native && shape.network === 'altchain'
    ? 'swap/native/altchain'
    : `swap/tokens/${shape.network}`
}

async function walletFor(shape: Shape) {
  const symbol = shape.kind === 'swap' ? shape.from : shape.token
  const { decimals } = side(shape.network, symbol)
  const held = symbol === 'NATIVE' ? {} : { [symbol]: parseUnits('400', decimals) }
  const funded = await fundedAccount(shape.network, { native: parseEther('50'), tokens: held })
  return { ...funded, access: (await signInWithWallet(funded.privateKey)).access }
}

function bodyOf(shape: Shape, percent: number, recipient: Address) {
  if (shape.kind === 'transfer') {
    const token = side(shape.network, shape.token)
    const amount = scaled(shape.amount, token.decimals, percent)
    return {
      to: recipient,
      amount: formatBase(amount, token.decimals),
      token: token.address,
      decimals: token.decimals,
    }
  }
  const [zero, one] = [side(shape.network, shape.from), side(shape.network, shape.to)]
  return {
    amount: formatBase(scaled(shape.amount, zero.decimals, percent), zero.decimals),
    address0: zero.address,
    decimals0: zero.decimals,
    address1: one.address,
    decimals1: one.decimals,
  }
}

function formatBase(amount: bigint, decimals: number): string {
  const text = amount.toString().padStart(decimals + 1, '0')
  const whole = text.slice(0, text.length - decimals)
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}

async function prepareAndMine(shape: Shape, percent: number) {
  const wallet = await walletFor(shape)
  const recipient = randomAddress()
  const body = bodyOf(shape, percent, recipient)
  const response = await prepareRoute(operationOf(shape), wallet.access, body)
  expect(response.body.error, JSON.stringify(response.body.error)).toBeUndefined()
  const prepared = response.body.result as Prepared
  const receipts = await mine(shape.network, wallet.privateKey, prepared.transactions)
  return { wallet, recipient, body, prepared, receipts }
}

/** Prepares, mines and compares; again (up to 3 times) when another transaction came between. */
async function expectPreviewMined(shape: Shape, percent: number): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const { wallet, recipient, prepared, receipts } = await prepareAndMine(shape, percent)
    expect(receipts.every((receipt) => receipt.status === 'success')).toBe(true)
    const { preview } = prepared
    // Another test file's transaction between the preview and ours changes the state.
    const blocks = receipts.map((receipt) => receipt.blockNumber)
    if (!(await minedAlone(shape.network, preview, blocks))) continue
    const moved =
      shape.kind === 'swap'
        ? [side(shape.network, shape.from).address, side(shape.network, shape.to).address]
        : [side(shape.network, shape.token).address]
    const pairs: [Address, Address][] = [
      ...preview.balanceChanges.map(
        (change) => [change.address, change.token] as [Address, Address],
      ),
      ...[NATIVE_COIN, ...moved].flatMap((token) => [
        [wallet.address, token] as [Address, Address],
        [recipient, token] as [Address, Address],
      ]),
    ]
    const measured = await measuredChanges(shape.network, wallet.address, pairs, receipts)
    expect(previewChanges(preview)).toEqual(measured)
    expect(preview.method).toBe('eth_simulateV1')
    expect(preview.transactions.map((transaction) => transaction.status)).toEqual(
      receipts.map(() => 'success'),
    )
    // Gas is close, not equal: a V2 pair writes its price accumulators and a V3 pool its oracle
    // only when the block's time moved since the pool's last trade, and the simulated block's time
    // is the node's guess. The largest such write, a V3 pool's new observation slot (a 20,000-gas
    // store and its cold access), is allowed beside a tenth (20,832 off on a UNI -> NATIVE swap
    // once, on a busy machine).
    for (const [index, receipt] of receipts.entries()) {
      const simulated = BigInt(preview.transactions[index]?.gasUsed ?? 0)
      const off = simulated - receipt.gasUsed
      expect(off < 0n ? -off : off).toBeLessThanOrEqual(receipt.gasUsed / 10n + 25_000n)
    }
    return
  }
  throw new Error('three attempts met another transaction between preview and mining')
}

const RUNS_PER_SHAPE = 6

function titleOf(shape: Shape): string {
  return shape.kind === 'swap'
    ? `swap ${shape.from} -> ${shape.to} on ${shape.network}`
    : `transfer of ${shape.token} on ${shape.network}`
}

describe('preview of a prepared sequence', () => {
  it.each(SHAPES.map((shape) => [titleOf(shape), shape] as const))(
    '%s: equals, per address and token, the balance changes of the mined transactions',
    async (_title, shape) => {
      let judged = 0
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 100 }), async (percent) => {
          await expectPreviewMined(shape, percent)
          judged += 1
        }),
        { seed: 402, numRuns: RUNS_PER_SHAPE, endOnFailure: true },
      )
      expect(judged).toBe(RUNS_PER_SHAPE)
    },
    300_000,
  )
})
