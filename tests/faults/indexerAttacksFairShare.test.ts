import '../support/env'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { listTrades } from '../../lib/db/trade'
import { depositCursorOf } from '../support/depositCursor'
import {
  firstTradesPage,
  indexerRun,
  type RunFigures,
  useFloodRig,
  writeFigures,
} from '../support/indexerEngines'
import { signInWithWallet } from '../support/walletSignIn'

// Issue 39, item 5, "the indexer's budget is shared by all wallets", replayed at a tenth of the
// deployed budgets (DECISIONS §10.4): the run's transfer budget 5,000 (deployed 50,000), its
// deposits 200 (2,000) and its reads 20,000 (200,000), with the range read in pages of one block
// (ETHEREUM_LOGS_MAX_BLOCKS=1), so the code before it stopped after each block whose logs passed
// its budget, as it stopped after each piece at deployed scale (issue 39: 150,000 one-unit
// transfers in 22 blocks, a bystander listed after three runs). Real ERC-20 transfers from a loop
// contract on a devnet of the file's own, the real scheduled handler with its function's deadline,
// and each run's calls counted at the DynamoDB client and the RPC transport.

const TRANSFERS = 5_000
const DEPOSITS = 200
Object.assign(process.env, {
  DEPOSIT_RUN_TRANSFERS: String(TRANSFERS),
  DEPOSIT_RUN_DEPOSITS: String(DEPOSITS),
  DEPOSIT_RUN_READS: String(4 * TRANSFERS),
  ETHEREUM_LOGS_MAX_BLOCKS: '1',
})

/** indexDeposits' timeout in serverless.yml. */
const FUNCTION_TIMEOUT_MS = 60_000
const MAX_RUNS = 4

const rig = useFloodRig('fair-share', '1000', FUNCTION_TIMEOUT_MS)

const usd = (amount: string) => parseUnits(amount, 6)

/** Runs until `done` says so or MAX_RUNS have run; each run's figures, and the first that was. */
async function runUntil(name: string, done: () => Promise<boolean>) {
  const runs: RunFigures[] = []
  let doneAt: number | undefined
  for (let run = 1; run <= MAX_RUNS && doneAt === undefined; run += 1) {
    runs.push(await indexerRun(run, FUNCTION_TIMEOUT_MS))
    if (await done()) doneAt = run
  }
  writeFigures(name, { doneAt, runs })
  return { runs, doneAt }
}

describe('a dust flood into one wallet at three times the run’s transfer budget', () => {
  it('holds nobody back: a bystander’s deposit inside it and the wallet’s own 5 USD deposit after it are listed by one run, and every flood transfer is weighed as dust', async () => {
    const [flooded, bystander] = [await signInWithWallet(), await signInWithWallet()]
    const floods = [await rig.spray(flooded.address, { count: BigInt(TRANSFERS) })]
    floods.push(await rig.spray(flooded.address, { count: BigInt(TRANSFERS) }))
    await rig.pay(bystander.address, usd('5'))
    floods.push(await rig.spray(flooded.address, { count: BigInt(TRANSFERS) }))
    const own = await rig.pay(flooded.address, usd('5'))
    const sent = floods.reduce((sum, flood) => sum + flood.transfers, 0)
    expect(sent).toBe(3 * TRANSFERS)
    expect(new Set(floods.map((flood) => flood.block)).size).toBe(3)

    const listed = async () =>
      (await firstTradesPage(bystander.access)).count === 1 &&
      (await firstTradesPage(flooded.access)).count === 1
    const { runs, doneAt } = await runUntil('indexerAttacksFairShare.flood', listed)

    expect(doneAt).toBe(1)
    expect(runs[0]?.timedOut).toBe(false)
    expect(await firstTradesPage(bystander.access)).toEqual({
      count: 1,
      trades: [expect.objectContaining({ type: 'deposit', amountExact: '5' })],
    })
    expect(await firstTradesPage(flooded.access)).toEqual({
      count: 1,
      trades: [
        expect.objectContaining({ type: 'deposit', status: 'successful', amountExact: '5' }),
      ],
    })
    expect(runs[0]?.ethereum).toMatchObject({ dust: sent, recorded: 2, lagging: 0 })
    expect(await depositCursorOf('ethereum')).toBeGreaterThan(own.block)
  }, 600_000)
})

describe('deposits at the dust threshold, fifteen times the run’s deposit share, into one wallet', () => {
  it('do not hold back the wallet’s own 5 USD deposit after them: the first run lists it, and the next runs the small ones from where the last stopped', async () => {
    const wallet = await signInWithWallet()
    // 0.01 USD each: exactly the floor, so not dust.
    const small = await rig.spray(wallet.address, { count: BigInt(15 * DEPOSITS), value: 10_000n })
    await rig.pay(wallet.address, usd('5'))
    const firstListed = async () => {
      const { trades } = await listTrades({
        wallet: wallet.address,
        limit: 1,
        offset: 0,
        direction: 'ASC',
      })
      return trades[0]?.amount
    }
    const own = async () => {
      const { trades } = await listTrades({
        wallet: wallet.address,
        limit: 1_000,
        offset: 0,
        direction: 'ASC',
      })
      return trades.some((trade) => trade.amount === '5')
    }

    const { runs, doneAt } = await runUntil('indexerAttacksFairShare.threshold', own)

    expect(small.transfers).toBe(15 * DEPOSITS)
    expect(doneAt).toBe(1)
    // Listed first among the wallet's deposits of the run, ahead of the small ones before it.
    expect(await firstListed()).toBe('5')
    expect(runs[0]?.ethereum).toMatchObject({
      recorded: DEPOSITS,
      dust: 0,
      deferred: 15 * DEPOSITS + 1 - DEPOSITS,
      lagging: 1,
    })
    const second = await indexerRun(2, FUNCTION_TIMEOUT_MS)
    expect(second.ethereum).toMatchObject({ recorded: DEPOSITS, lagging: 1 })
    const { count, trades } = await listTrades({
      wallet: wallet.address,
      limit: 2 * DEPOSITS,
      offset: 0,
      direction: 'ASC',
    })
    expect(count).toBe(2 * DEPOSITS)
    expect(trades.filter((trade) => trade.amount === '0.01')).toHaveLength(2 * DEPOSITS - 1)
    expect(new Set(trades.map((trade) => `${trade.hash}:${trade.logIndex}`)).size).toBe(
      2 * DEPOSITS,
    )
  }, 600_000)
})
