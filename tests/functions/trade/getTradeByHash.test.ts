import '../../support/env'
import { randomBytes } from 'node:crypto'
import { toHex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { handler } from '../../../functions/trade/getTradeByHash'
import { recordTrade } from '../../../lib/db/trade'
import { httpEvent, invoke } from '../../support/httpEvent'
import { createMockTrade } from '../../support/tradeFixtures'
import { signInWithWallet } from '../../support/walletSignIn'
import { spyOnDbSend } from '../../support/dbSendSpy'

let owner: Awaited<ReturnType<typeof signInWithWallet>>

function getByHash(hash: string, token = owner.access) {
  return invoke(
    handler,
    httpEvent({
      route: 'getTradeByHash',
      pathParameters: { hash },
      headers: { authorization: `Bearer ${token}` },
    }),
  )
}

const settled = { status: 'successful', gasUsed: 21_000n, blockNumber: 4n } as const

beforeAll(async () => {
  owner = await signInWithWallet()
})

describe('GET /v1/trade/hash/{hash}', () => {
  it('answers the wallet’s trade for a hash in any case, in two table reads', async () => {
    const hash = toHex(randomBytes(32))
    const { id } = await recordTrade(
      createMockTrade({ hash, wallet: owner.address, type: 'swap', outcome: settled }),
    )
    const send = spyOnDbSend()

    const response = await getByHash(hash.toUpperCase().replace('0X', '0x'))

    expect(send).toHaveBeenCalledTimes(2)
    expect(response.status).toBe(200)
    expect(response.body.result).toMatchObject({
      id,
      hash,
      type: 'swap',
      status: 'successful',
      gasUsed: 21_000,
      blockNumber: 4,
    })
  })

  it('answers 404 for a hash that is only another wallet’s trade', async () => {
    const other = await signInWithWallet()
    const hash = toHex(randomBytes(32))
    await recordTrade(createMockTrade({ hash, wallet: other.address, outcome: settled }))

    const response = await getByHash(hash)

    expect(response.status).toBe(404)
    expect(response.body.error?.code).toBe(404)
    expect((await getByHash(hash, other.access)).status).toBe(200)
  })

  it.each(['0x1234', `0x${'g'.repeat(64)}`, 'a'.repeat(66)])(
    'answers 400 for the hash %s',
    async (hash) => {
      const response = await getByHash(hash)

      expect(response.status).toBe(400)
      expect(response.body.error?.details).toEqual([
        expect.objectContaining({ path: 'params.hash' }),
      ])
    },
  )
})
