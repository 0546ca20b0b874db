import '../../support/env'
import { type Hash, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { handler as reconcileTrades } from '../../../functions/schedules/reconcileTrades'
import { NATIVE_COIN } from '../../../lib/constants'
import { listTrades } from '../../../lib/db/trade'
import { prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { devnet, fundedAccount } from '../../support/devnetAccounts'
import { randomAddress } from '../../support/marketFixtures'
import { type PreparedTransaction, signPrepared } from '../../support/signPrepared'
import { signInWithWallet } from '../../support/walletSignIn'

// Issue 22 row 4 (DECISIONS §8.2, "Every broadcast is a trade"): a submit of three native
// transfers broadcast all three but recorded one (the last). Each transaction sent is a trade,
// settled by the reconciler, and a retry with the same Idempotency-Key sends and records nothing.

describe('a submit of three signed native transfers', () => {
  it('records three trades, one per hash, each reconciled; a retry adds none', async () => {
    const sender = await fundedAccount('altchain', { native: parseEther('10') })
    const { access } = await signInWithWallet(sender.privateKey)
    const recipient = randomAddress()
    const prepared = await prepareRoute('transfer/tokens/altchain', access, {
      to: recipient,
      amount: '0.1',
    })
    expect(prepared.status).toBe(200)
    const [transfer] = (prepared.body.result as { transactions: PreparedTransaction[] })
      .transactions
    if (!transfer) throw new Error('no transaction prepared')
    const signed = await Promise.all(
      [0, 1, 2].map((offset) =>
        signPrepared(sender.account, transfer, { nonce: transfer.nonce + offset }),
      ),
    )
    const key = `three-transfers-${recipient}`

    const response = await submitRoute('altchain', access, signed, { 'idempotency-key': key })

    expect(response.status).toBe(200)
    const { txIds } = response.body.result as { txIds: Hash[] }
    expect(txIds).toHaveLength(3)
    for (const hash of txIds) {
      await devnet('altchain').waitForTransactionReceipt({ hash })
    }
    expect(await devnet('altchain').getBalance({ address: recipient })).toBe(parseEther('0.3'))
    const recorded = await listTrades({
      wallet: sender.address,
      limit: 10,
      offset: 0,
      direction: 'ASC',
    })
    expect(recorded.count).toBe(3)
    expect(recorded.trades.map((trade) => trade.hash)).toEqual(txIds)
    for (const trade of recorded.trades) {
      expect(trade).toMatchObject({
        type: 'transfer',
        amount: '0.1',
        token: NATIVE_COIN,
        isNativeTransfer: true,
      })
    }

    await reconcileTrades({} as never)
    const settled = await listTrades({
      wallet: sender.address,
      limit: 10,
      offset: 0,
      direction: 'ASC',
    })
    expect(settled.trades.map((trade) => trade.status)).toEqual([
      'successful',
      'successful',
      'successful',
    ])
    for (const trade of settled.trades) expect(Number(trade.blockNumber)).toBeGreaterThan(0)

    const retried = await submitRoute('altchain', access, signed, { 'idempotency-key': key })
    expect(retried.body.result).toEqual(response.body.result)
    expect(
      (await listTrades({ wallet: sender.address, limit: 10, offset: 0, direction: 'ASC' })).count,
    ).toBe(3)
  })
})
