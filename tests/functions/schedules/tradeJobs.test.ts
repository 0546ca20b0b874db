import '../../support/env'
import { randomBytes } from 'node:crypto'
import type { ScheduledEvent } from 'aws-lambda'
import { parseEther, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { handler as indexDepositsHandler } from '../../../functions/schedules/indexDeposits'
import { handler as reconcileTradesHandler } from '../../../functions/schedules/reconcileTrades'
import { getTrade, recordTrade } from '../../../lib/db/trade'
import { NETWORK_NAMES } from '../../../lib/networkNames'
import { devnet } from '../../support/devnetAccounts'
import { fundedAccount } from '../../support/devnetAccounts'
import { createMockTrade, receiptOf } from '../../support/tradeFixtures'

const event = { 'detail-type': 'Scheduled Event', source: 'aws.events' } as ScheduledEvent

describe('the scheduled trade jobs', () => {
  it('reconciles every served network, settling a mined trade and keeping an unmined one', async () => {
    const sender = await fundedAccount('altchain')
    const client = devnet('altchain')
    const hash = await client.sendTransaction({
      account: sender.account,
      chain: client.chain,
      to: sender.address,
      value: parseEther('1'),
    })
    await receiptOf('altchain', hash)
    const mined = await recordTrade(
      createMockTrade({ hash, network: 'altchain', wallet: sender.address }),
    )
    const unmined = createMockTrade({ hash: toHex(randomBytes(32)) })
    const { id: unminedId } = await recordTrade(unmined)

    const runs = await reconcileTradesHandler(event)

    // Every network the stage serves (NETWORKS: the suite's stack serves the whole table).
    expect(runs.map((run) => run.network)).toEqual(NETWORK_NAMES)
    expect((await getTrade(sender.address, mined.id))?.status).toBe('successful')
    expect((await getTrade(unmined.wallet, unminedId))?.status).toBe('pending')
  })

  it('indexes every served network from its cursor', async () => {
    const runs = await indexDepositsHandler(event)

    expect(runs.map(({ network }) => network)).toEqual(NETWORK_NAMES)
    for (const run of runs) expect(run.recorded).toEqual(expect.any(Number))
  })
})
