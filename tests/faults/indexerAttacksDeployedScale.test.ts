import '../support/env'
import { parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listTrades } from '../../lib/db/trade'
import {
  blockCapacity,
  deployFloodRig,
  type FloodRig,
  indexerRun,
  type IndexerEngines,
  type RunFigures,
  startIndexerEngines,
  writeFigures,
} from '../support/indexerEngines'
import { signInWithWallet } from '../support/walletSignIn'

// Issue 39, item 5, at the deployed budgets (transfers 50,000, reads 200,000, deposits 2,000) and
// the issue's own scale: 150,000 one-unit transfers of the USD coin into one wallet in blocks full
// to the devnet's 30M gas, a bystander's 5 USD in the next block and the wallet's own 5 USD after
// it. Minutes of both cores, so it runs only with TEST_DEPLOYED_SCALE=1; the same attack at a tenth
// of the budgets runs in every suite (indexerAttacksFairShare.test.ts).

const FLOOD = 150_000
const MAX_RUNS = 4

let engines: IndexerEngines | undefined
let rig: FloodRig & { loop: `0x${string}` }

describe.skipIf(process.env.TEST_DEPLOYED_SCALE !== '1')('at the deployed budgets', () => {
  beforeAll(async () => {
    engines = await startIndexerEngines('deployed-scale')
    rig = await deployFloodRig(engines, '1')
    expect((await indexerRun(0, 60_000)).timedOut).toBe(false)
  }, 180_000)

  afterAll(async () => {
    await engines?.stop()
  })

  it('a flood of 150,000 dust transfers into one wallet holds nobody back: the bystander’s deposit after it and the wallet’s own are listed by the first run', async () => {
    const [flooded, bystander] = [await signInWithWallet(), await signInWithWallet()]
    const { gasLimit, perBlock } = await blockCapacity(
      engines as IndexerEngines,
      rig,
      flooded.address,
    )
    let sent = 0
    let blocks = 0
    while (sent < FLOOD) {
      const count = BigInt(Math.min(Number(perBlock), FLOOD - sent))
      sent += (await rig.spray(flooded.address, { count, gas: gasLimit })).transfers
      blocks += 1
    }
    await rig.pay(bystander.address, parseUnits('5', 6))
    await rig.pay(flooded.address, parseUnits('5', 6))

    const runs: RunFigures[] = []
    const amounts = async (wallet: `0x${string}`) =>
      (await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })).trades.map(
        (trade) => trade.amount,
      )
    let doneAt: number | undefined
    for (let run = 1; run <= MAX_RUNS && doneAt === undefined; run += 1) {
      runs.push(await indexerRun(run, 60_000))
      const listed = [await amounts(bystander.address), await amounts(flooded.address)]
      if (listed.every((list) => list.length > 0)) doneAt = run
    }
    writeFigures('indexerAttacksDeployedScale', { sent, blocks, doneAt, runs })

    expect(sent).toBe(FLOOD)
    expect(doneAt).toBe(1)
    expect(runs[0]).toMatchObject({ timedOut: false, ethereum: { dust: FLOOD, recorded: 2 } })
    expect(await amounts(flooded.address)).toEqual(['5'])
  }, 1_200_000)
})
