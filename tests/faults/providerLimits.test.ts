import '../support/env'
import { randomUUID } from 'node:crypto'
import { hexToBigInt } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setDepositCursor } from '../../lib/db/depositCursor'
import { listTrades } from '../../lib/db/trade'
import { markWalletKnown } from '../../lib/db/wallet'
import { indexDeposits } from '../../lib/trades/indexDeposits'
import { devnet } from '../support/devnetAccounts'
import { createTable } from '../../lib/local/localStack'
import { type JsonRpcCall, type RpcProxy, startRpcProxy } from '../support/faultEngines'
import { demoToken, giveTokens } from '../support/tradeFixtures'

// A provider that refuses wide eth_getLogs ranges (as hosted providers do, with -32005 and
// "query returned more than 10000 results"), in front of the shared ethereum devnet: the indexer
// halves a refused range until it is served and records every deposit once. A table of its own
// keeps the deposit cursor of `ethereum` away from the other files.

const SERVED_RANGE = 8n
let proxy: RpcProxy

beforeAll(async () => {
  proxy = await startRpcProxy(String(process.env.ETHEREUM_RPC_URL))
  const table = `limits-${randomUUID()}`
  await createTable(String(process.env.DYNAMODB_ENDPOINT), table)
  Object.assign(process.env, { TABLE_NAME: table, ETHEREUM_RPC_URL: proxy.url })
}, 60_000)

afterAll(async () => {
  await proxy?.close()
})

function rangeOf(call: JsonRpcCall): bigint {
  const [filter] = (call.params ?? []) as Array<{
    fromBlock?: `0x${string}`
    toBlock?: `0x${string}`
  }>
  if (!filter?.fromBlock || !filter.toBlock) return 0n
  return hexToBigInt(filter.toBlock) - hexToBigInt(filter.fromBlock) + 1n
}

describe('eth_getLogs ranges a provider refuses', () => {
  it('are halved until served, and the deposits in them are recorded once', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    await markWalletKnown(wallet)
    const client = devnet('ethereum')
    // Some blocks before the deposit, so the run's range is wider than the provider serves.
    await client.mine({ blocks: 20 })
    const start = (await client.getBlockNumber({ cacheTime: 0 })) - 19n
    const token = demoToken('ethereum')
    await giveTokens('ethereum', {
      token: token.address,
      to: wallet,
      amount: 10n ** BigInt(token.decimals),
    })
    await setDepositCursor('ethereum', start)
    const served: bigint[] = []
    let refused = 0
    proxy.answerWithError(
      (call) => {
        if (call.method !== 'eth_getLogs') return false
        if (rangeOf(call) > SERVED_RANGE) {
          refused += 1
          return true
        }
        served.push(rangeOf(call))
        return false
      },
      { code: -32005, message: 'query returned more than 10000 results' },
    )
    try {
      await indexDeposits({ networks: ['ethereum'] })
      await indexDeposits({ networks: ['ethereum'] })
    } finally {
      proxy.answerWithError(undefined)
    }

    expect(refused).toBeGreaterThan(0)
    expect(served.length).toBeGreaterThan(1)
    for (const range of served) expect(range).toBeLessThanOrEqual(SERVED_RANGE)
    const { trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'DESC' })
    expect(trades.filter((trade) => trade.type === 'deposit')).toHaveLength(1)
  })
})
