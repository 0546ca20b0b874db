import '../../support/env'
import { randomBytes } from 'node:crypto'
import type { ScheduledEvent } from 'aws-lambda'
import { parseEther, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { handler as indexDepositsHandler } from '../../../functions/schedules/indexDeposits'
import { handler as reconcileTradesHandler } from '../../../functions/schedules/reconcileTrades'
import { getTrade, recordTrade } from '../../../lib/db/trade'
import { devnet } from '../../support/devnetAccounts'
import { fundedAccount } from '../../support/devnetAccounts'
import { createMockTrade, receiptOf } from '../../support/tradeFixtures'

const event = { 'detail-type': 'Scheduled Event', source: 'aws.events' } as ScheduledEvent

describe('the scheduled trade jobs', () => {
  it('reconciles both networks, settling a mined trade and keeping an unmined one', async () => {
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

    expect(runs.map((run) => run.network)).toEqual(['ethereum', 'altchain'])
    expect((await getTrade(sender.address, mined.id))?.status).toBe('successful')
    expect((await getTrade(unmined.wallet, unminedId))?.status).toBe('pending')
  })

  it('indexes both networks from their cursors', async () => {
    const runs = await indexDepositsHandler(event)

    expect(runs).toEqual([
      expect.objectContaining({ network: 'ethereum', recorded: expect.any(Number) }),
      expect.objectContaining({ network: 'altchain', recorded: expect.any(Number) }),
    ])
  })
})
