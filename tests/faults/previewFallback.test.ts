import '../support/env'
import { type Address, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../lib/constants'
import type { Preview } from '../../lib/preview/previewSequence'
import { prepareRoute } from '../support/clientSigningRoutes'
import { deployment, fundedAccount } from '../support/devnetAccounts'
import { type RpcProxy, startRpcProxy } from '../support/faultEngines'
import { randomAddress } from '../support/marketFixtures'
import { keyOf, measuredChanges, mine, minedAlone, previewChanges } from '../support/previewChecks'
import type { PreparedTransaction } from '../support/signPrepared'
import { signInWithWallet } from '../support/walletSignIn'

// A node without eth_simulateV1 (the fault stood in for by a proxy answering it "method not
// found"; the rest is the real ethereum devnet): the preview falls back to one eth_call with
// SequenceProbe placed at the wallet's address, and its balance changes of the wallet and the
// recipient equal those of the mined transactions.

let proxy: RpcProxy
let simulateAsked = 0

beforeAll(async () => {
  proxy = await startRpcProxy(String(process.env.ETHEREUM_RPC_URL))
  proxy.answerWithError(
    (call) => {
      if (call.method !== 'eth_simulateV1') return false
      simulateAsked += 1
      return true
    },
    { code: -32601, message: 'the method eth_simulateV1 does not exist/is not available' },
  )
  // Before any handler reads its configuration: clients are built on first use.
  process.env.ETHEREUM_RPC_URL = proxy.url
}, 60_000)

afterAll(async () => {
  await proxy?.close()
})

interface Prepared {
  transactions: PreparedTransaction[]
  preview: Preview
}

async function preparedAndMined(
  tokens: Record<string, bigint>,
  operation: 'swap' | 'transfer',
  body: object,
) {
  const funded = await fundedAccount('ethereum', { native: parseEther('20'), tokens })
  const { access } = await signInWithWallet(funded.privateKey)
  const path = operation === 'swap' ? 'swap/tokens/ethereum' : 'transfer/tokens/ethereum'
  const response = await prepareRoute(path, access, body)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  const { transactions, preview } = response.body.result as Prepared
  const receipts = await mine('ethereum', funded.privateKey, transactions)
  expect(receipts.map((receipt) => receipt.status)).toEqual(transactions.map(() => 'success'))
  return { owner: funded.address, preview, receipts }
}

/** The measured changes of `holders` in `tokens`, compared with the preview's. */
async function expectSameChanges(
  run: Awaited<ReturnType<typeof preparedAndMined>>,
  holders: Address[],
  tokens: Address[],
) {
  const { owner, preview, receipts } = run
  expect(preview.method).toBe('eth_call')
  const alone = await minedAlone(
    'ethereum',
    preview,
    receipts.map((receipt) => receipt.blockNumber),
  )
  // Another file's transaction between preview and mining changes the state: nothing to judge.
  if (!alone) return false
  const pairs = holders.flatMap((holder) =>
    tokens.map((token) => [holder, token] as [Address, Address]),
  )
  const measured = await measuredChanges('ethereum', owner, pairs, receipts)
  const previewed = previewChanges(preview)
  for (const [holder, token] of pairs) {
    expect(previewed.get(keyOf(holder, token)) ?? 0n, `${holder} ${token}`).toBe(
      measured.get(keyOf(holder, token)) ?? 0n,
    )
  }
  return true
}

describe('preview on a node without eth_simulateV1', () => {
  it('an approval and a token swap: eth_call with state overrides, the same balance changes as mined', async () => {
    const dex = deployment('ethereum')
    const link = dex.token('LINK')
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const run = await preparedAndMined({ LINK: parseEther('50') }, 'swap', {
        amount: '12.5',
        address0: link,
        decimals0: 18,
        address1: dex.usdStablecoin,
        decimals1: 6,
      })
      expect(run.preview.issues.map((issue) => issue.type)).toEqual(['insufficientAllowance'])
      // The approval of the exact amount is spent by the swap: no allowance is left standing.
      expect(run.preview.allowanceChanges).toEqual([])
      if (
        await expectSameChanges(
          run,
          [run.owner, dex.swapRouter],
          [link, dex.usdStablecoin, NATIVE_COIN],
        )
      )
        return
    }
    throw new Error('three attempts met another transaction between preview and mining')
  })

  it('native in, native out and a transfer: the same balance changes as mined', async () => {
    const dex = deployment('ethereum')
    const uni = dex.token('UNI')
    const recipient = randomAddress()
    const cases: {
      tokens: Record<string, bigint>
      operation: 'swap' | 'transfer'
      body: object
    }[] = [
      {
        tokens: {},
        operation: 'swap',
        body: { amount: '0.4', address0: NATIVE_COIN, decimals0: 18, address1: uni, decimals1: 18 },
      },
      {
        tokens: { UNI: parseEther('30') },
        operation: 'swap',
        body: { amount: '9', address0: uni, decimals0: 18, address1: NATIVE_COIN, decimals1: 18 },
      },
      {
        tokens: { USDC: parseUnits('500', 6) },
        operation: 'transfer',
        body: { to: recipient, amount: '123.45', token: dex.usdStablecoin, decimals: 6 },
      },
      { tokens: {}, operation: 'transfer', body: { to: recipient, amount: '1.25' } },
    ]
    for (const { tokens, operation, body } of cases) {
      let judged = false
      for (let attempt = 1; attempt <= 3 && !judged; attempt += 1) {
        const run = await preparedAndMined(tokens, operation, body)
        judged = await expectSameChanges(
          run,
          [run.owner, recipient],
          [NATIVE_COIN, uni, dex.usdStablecoin],
        )
      }
      expect(judged).toBe(true)
    }
    // The node was asked once: the container then goes straight to eth_call.
    expect(simulateAsked).toBe(1)
  })
})
