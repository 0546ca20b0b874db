import '../support/env'
import { randomBytes } from 'node:crypto'
import { toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { recordTrade } from '../../lib/db/trade'
import { nonceResultSchema } from '../../schemas/auth'
import { sessionTokensSchema } from '../../schemas/session'
import { listTradesResultSchema, tradeRecordSchema } from '../../schemas/trade'
import { createMockTrade } from '../support/tradeFixtures'
import { apiCall } from '../support/apiCall'

describe('a wallet user’s trades over HTTP (serverless offline)', () => {
  it('signs in, lists its trades and looks one up by id and by hash', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const nonce = nonceResultSchema.parse(
      (await apiCall('GET', `/auth/nonce/${account.address}`)).body.result,
    )
    const signature = await account.signMessage({ message: nonce.message })
    const login = await apiCall('POST', '/auth/login', {
      body: { address: account.address, signature },
    })
    const { access } = sessionTokensSchema.parse(login.body.result)
    const hash = toHex(randomBytes(32))
    const { id } = await recordTrade(
      createMockTrade({
        hash,
        wallet: account.address,
        from: account.address,
        amount: '2.75',
        outcome: { status: 'successful', gasUsed: 21_000n, blockNumber: 3n },
      }),
    )

    const listed = await apiCall('GET', '/trades?limit=5&direction=asc', { token: access })
    const byId = await apiCall('GET', `/trade/id/${id}`, { token: access })
    const byHash = await apiCall('GET', `/trade/hash/${hash}`, { token: access })
    const anonymous = await apiCall('GET', '/trades')

    expect(listed.status).toBe(200)
    expect(listTradesResultSchema.parse(listed.body.result)).toEqual({
      count: 1,
      trades: [{ id, type: 'transfer', status: 'successful', amount: 2.75, amountExact: '2.75' }],
    })
    expect(byId.status).toBe(200)
    expect(tradeRecordSchema.parse(byId.body.result)).toMatchObject({
      id,
      hash,
      amount: 2.75,
      amountExact: '2.75',
      gasUsed: 21_000,
      blockNumber: 3,
    })
    expect(byHash.body.result).toEqual(byId.body.result)
    expect(anonymous.body.error?.code).toBe(401001)
  })
})
