import '../../support/env'
import { randomBytes, randomUUID } from 'node:crypto'
import { formatUnits, parseEther, toHex } from 'viem'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { handler } from '../../../functions/trade/getTradeById'
import { db } from '../../../lib/db/client'
import { recordDeposits } from '../../../lib/db/depositRecords'
import { findTradeByHash, getTrade, recordTrade } from '../../../lib/db/trade'
import { httpEvent, invoke } from '../../support/httpEvent'
import { devnet } from '../../support/devnetAccounts'
import { fundedAccount } from '../../support/devnetAccounts'
import { createMockDeposit, createMockTrade, receiptOf } from '../../support/tradeFixtures'
import { signInWithWallet } from '../../support/walletSignIn'

let owner: Awaited<ReturnType<typeof signInWithWallet>>

function getById(tradeId: string, token = owner.access) {
  return invoke(
    handler,
    httpEvent({
      route: 'getTradeById',
      pathParameters: { tradeId },
      headers: { authorization: `Bearer ${token}` },
    }),
  )
}

beforeAll(async () => {
  owner = await signInWithWallet()
})

describe('GET /v1/trade/id/{tradeId}', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('answers every digit of an amount in amountExact, beside the number that loses some', async () => {
    // 62293681038691758060043412713395 base units of a 24-decimal token (issue 25).
    const amount = formatUnits(62293681038691758060043412713395n, 24)
    const trade = createMockTrade({
      hash: toHex(randomBytes(32)),
      wallet: owner.address,
      from: owner.address,
      amount,
    })
    const { id } = await recordTrade(trade)

    const response = await getById(id)

    expect(amount).toBe('62293681.038691758060043412713395')
    expect(response.body.result).toMatchObject({ amount: 62293681.03869176, amountExact: amount })
  })

  it('answers the full record of a trade of the wallet, pending with 0 gas and block', async () => {
    const trade = createMockTrade({
      hash: toHex(randomBytes(32)),
      wallet: owner.address,
      from: owner.address,
      amount: '0.25',
    })
    const createdAt = new Date('2026-03-04T05:06:07.891Z')
    const { id } = await recordTrade(trade, { now: createdAt })

    const response = await getById(id.toUpperCase())

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          id,
          hash: trade.hash,
          type: 'transfer',
          network: 'ethereum',
          status: 'pending',
          amount: 0.25,
          amountExact: '0.25',
          gasUsed: 0,
          blockNumber: 0,
          isNativeTransfer: true,
          from: owner.address,
          to: trade.to,
          createdAt: '2026-03-04 05:06:07.891000 +00:00',
        },
      },
    })
  })

  it('settles a pending trade on read when its receipt is already there', async () => {
    const sender = await fundedAccount('ethereum')
    const client = devnet('ethereum')
    const hash = await client.sendTransaction({
      account: sender.account,
      chain: client.chain,
      to: owner.address,
      value: parseEther('0.1'),
    })
    const receipt = await receiptOf('ethereum', hash)
    const { id } = await recordTrade(
      createMockTrade({ hash, wallet: owner.address, from: sender.address, to: owner.address }),
    )
    const send = vi.spyOn(db(), 'send')

    const response = await getById(id)

    // The session, the trade, and the one conditional update that settles it; before its one RPC
    // call, the client's RPC budget charged (3, the route's worst case) and 2 refunded.
    expect(send).toHaveBeenCalledTimes(5)
    expect(response.body.result).toMatchObject({
      status: 'successful',
      gasUsed: Number(receipt.gasUsed),
      blockNumber: Number(receipt.blockNumber),
    })
    expect(await getTrade(owner.address, id)).toMatchObject({
      status: 'successful',
      gasUsed: receipt.gasUsed,
    })
  })

  it('reads the table twice for a settled trade: the session and the trade', async () => {
    const deposit = createMockDeposit({ wallet: owner.address, gasUsed: 52_000n, blockNumber: 9n })
    await recordDeposits(owner.address, [deposit])
    const { id } = (await findTradeByHash(owner.address, deposit.hash)) ?? { id: '' }
    const send = vi.spyOn(db(), 'send')

    const response = await getById(id)

    expect(response.body.result).toMatchObject({ type: 'deposit', gasUsed: 52_000, blockNumber: 9 })
    expect(send).toHaveBeenCalledTimes(2)
  })

  it('answers 404 for another wallet’s trade and for an unknown id', async () => {
    const other = await signInWithWallet()
    const { id } = await recordTrade(
      createMockTrade({ hash: toHex(randomBytes(32)), wallet: other.address }),
    )

    const foreign = await getById(id)
    const unknown = await getById(randomUUID())

    expect(foreign).toEqual({
      status: 404,
      body: { ok: false, error: { code: 404, message: expect.any(String) } },
    })
    expect(unknown.status).toBe(404)
    expect((await getById(id, other.access)).status).toBe(200)
  })

  it('answers 400 for an id that is not a UUID', async () => {
    const response = await getById('not-a-uuid')

    expect(response.status).toBe(400)
    expect(response.body.error?.details).toEqual([
      expect.objectContaining({ path: 'params.tradeId' }),
    ])
  })
})
