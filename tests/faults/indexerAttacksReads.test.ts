import '../support/env'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { listDepositLags } from '../../lib/db/depositLags'
import { listTrades } from '../../lib/db/trade'
import { depositCursorOf } from '../support/depositCursor'
import { indexerRun, type RunFigures, useFloodRig, writeFigures } from '../support/indexerEngines'
import { signInWithWallet } from '../support/walletSignIn'

// Issue 39, item 5, "counting happens after eth_getLogs, so a flood still costs reads": a dust flood
// into one wallet larger than the run's whole read budget (DEPOSIT_RUN_READS, here 4,000: a
// twelfth of the deployed budgets, with the transfer budget 1,000 and the range read in pages of
// one block). Once a run has read its budget unfiltered, it reads the rest of its range for known
// wallets only (topic 2), leaving out the wallet that took a sixteenth of the budget: its range
// waits in its lag, read back for it alone, a page a run. Real ERC-20 transfers, the real
// scheduled handler, each run's calls counted.

const TRANSFERS = 1_000
const READS = 4 * TRANSFERS
Object.assign(process.env, {
  DEPOSIT_RUN_TRANSFERS: String(TRANSFERS),
  DEPOSIT_RUN_DEPOSITS: '100',
  DEPOSIT_RUN_READS: String(READS),
  ETHEREUM_LOGS_MAX_BLOCKS: '1',
})

const FUNCTION_TIMEOUT_MS = 60_000
const MAX_RUNS = 6

const rig = useFloodRig('reads', '1000', FUNCTION_TIMEOUT_MS)

const amountsOf = async (wallet: `0x${string}`) =>
  (await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })).trades.map(
    (trade) => trade.amount,
  )

describe('a dust flood into one wallet at three times the run’s whole read budget', () => {
  it('leaves only that wallet behind: two bystanders’ deposits inside and after it are listed by the first run, its reads stay within twice the budget and a page, and the wallet’s own deposit follows from its lag', async () => {
    const [flooded, early, late] = await Promise.all([
      signInWithWallet(),
      signInWithWallet(),
      signInWithWallet(),
    ])
    const floods = [await rig.spray(flooded.address, { count: BigInt(READS) })]
    await rig.pay(early.address, parseUnits('5', 6))
    floods.push(await rig.spray(flooded.address, { count: BigInt(READS) }))
    floods.push(await rig.spray(flooded.address, { count: BigInt(READS) }))
    await rig.pay(late.address, parseUnits('7', 6))
    const own = await rig.pay(flooded.address, parseUnits('5', 6))
    expect(floods.reduce((sum, flood) => sum + flood.transfers, 0)).toBe(3 * READS)

    const runs: RunFigures[] = []
    const listed: Record<string, number | undefined> = {}
    for (let run = 1; run <= MAX_RUNS && listed.flooded === undefined; run += 1) {
      runs.push(await indexerRun(run, FUNCTION_TIMEOUT_MS))
      for (const [name, wallet] of Object.entries({ flooded, early, late })) {
        if (listed[name] === undefined && (await amountsOf(wallet.address)).length > 0) {
          listed[name] = run
        }
      }
      if (run === 1) listed.lag = Number((await listDepositLags('ethereum'))[0]?.fromBlock ?? 0n)
    }
    writeFigures('indexerAttacksReads', { listed, runs })

    expect(await amountsOf(early.address)).toEqual(['5'])
    expect(await amountsOf(late.address)).toEqual(['7'])
    expect(listed).toMatchObject({ early: 1, late: 1 })
    // The flooded wallet's range from the block after the budget ran out waits in its lag.
    expect(listed.lag).toBe(Number((floods[0]?.block ?? 0n) + 1n))
    expect(runs[0]?.ethereum?.examined).toBeLessThanOrEqual(2 * READS + READS)
    for (const run of runs) expect(run.timedOut).toBe(false)
    expect(await amountsOf(flooded.address)).toEqual(['5'])
    expect(listed.flooded).toBeLessThanOrEqual(MAX_RUNS)
    expect(await depositCursorOf('ethereum')).toBeGreaterThan(own.block)
    expect(await listDepositLags('ethereum')).toEqual([])
  }, 600_000)
})
