import '../support/env'
import { randomUUID } from 'node:crypto'
import { hexToBigInt } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NETWORK_NAMES, type NetworkName } from '../../lib/networkNames'
import { placeDepositCursor } from '../support/depositCursor'
import { listTrades } from '../../lib/db/trade'
import { markWalletsKnown } from '../../lib/db/wallet'
import { indexDeposits } from '../../lib/trades/indexDeposits'
import { listInCatalog } from '../support/catalogListing'
import { devnet } from '../support/devnetAccounts'
import { createTable } from '../../lib/local/localTable'
import { type JsonRpcCall, type RpcProxy, startRpcProxy } from '../support/faultEngines'
import { demoToken, giveTokens } from '../support/tradeFixtures'
import { TESTED_NETWORKS } from '../support/networkCases'

// A provider that refuses wide eth_getLogs ranges, in front of each shared devnet: the indexer
// asks at most the network's own maximum (`<NET>_LOGS_MAX_BLOCKS`, set apart here), halves a
// refused range until it is served and records every deposit once. The refusals are the ones
// hosted providers answer (codes and messages as they send them). A table of its own keeps the
// deposit cursors of every network away from the other files.

const SERVED_RANGE = 8n
// A maximum of each network's own (12, 16, 20, ...): each network reads its own setting.
const MAX_BLOCKS = Object.fromEntries(
  NETWORK_NAMES.map((network, index) => [
    network,
    12n + 4n * BigInt((index + 1) % NETWORK_NAMES.length),
  ]),
) as Record<NetworkName, bigint>
const proxies: Partial<Record<NetworkName, RpcProxy>> = {}

beforeAll(async () => {
  const table = `limits-${randomUUID()}`
  const [started] = await Promise.all([
    Promise.all(
      NETWORK_NAMES.map(
        async (network) =>
          [
            network,
            await startRpcProxy(String(process.env[`${network.toUpperCase()}_RPC_URL`])),
          ] as const,
      ),
    ),
    createTable(String(process.env.DYNAMODB_ENDPOINT), table),
  ])
  Object.assign(proxies, Object.fromEntries(started))
  // Before any module reads its configuration: settings are read once, on first use.
  process.env.TABLE_NAME = table
  // Only catalog tokens' transfers are deposits (DECISIONS §8.2).
  for (const network of NETWORK_NAMES) {
    const token = demoToken(network)
    await listInCatalog(network, token)
  }
  for (const network of NETWORK_NAMES) {
    Object.assign(process.env, {
      [`${network.toUpperCase()}_RPC_URL`]: proxies[network]?.url,
      [`${network.toUpperCase()}_LOGS_MAX_BLOCKS`]: String(MAX_BLOCKS[network]),
    })
  }
}, 60_000)

afterAll(async () => {
  await Promise.all(Object.values(proxies).map((proxy) => proxy.close()))
})

function rangeOf(call: JsonRpcCall): bigint {
  const [filter] = (call.params ?? []) as Array<{
    fromBlock?: `0x${string}`
    toBlock?: `0x${string}`
  }>
  if (!filter?.fromBlock || !filter.toBlock) return 0n
  return hexToBigInt(filter.toBlock) - hexToBigInt(filter.fromBlock) + 1n
}

// As hosted providers answered (quoted in public issue threads): each names the range or the
// result size its own way, with codes from -32602 to -32614.
const REFUSALS = [
  {
    provider: 'Infura (results)',
    code: -32005,
    message: 'query returned more than 10000 results. Try with this block range [0x1, 0x2].',
  },
  { provider: 'Infura (range)', code: -32602, message: 'range 1000000 exceeds limit of 10000' },
  {
    provider: 'Alchemy',
    code: -32602,
    message:
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response.',
  },
  {
    provider: 'Alchemy (free tier)',
    code: -32600,
    message: 'You can make eth_getLogs requests with up to a 500 block range.',
  },
  { provider: 'QuickNode', code: -32614, message: 'eth_getLogs is limited to a 10,000 range' },
  {
    provider: 'a geth-based node',
    code: -32000,
    message:
      'block range is larger than max block range, block range = 5120, max block range = 5000',
  },
  { provider: 'zkSync', code: -32008, message: 'Response is too big' },
]

describe.each(TESTED_NETWORKS)('eth_getLogs ranges a provider refuses, on %s', (network) => {
  it.each(REFUSALS)(
    'are asked within the network’s maximum, halved when refused as $provider refuses, and their deposits recorded once',
    async (refusal) => {
      const proxy = proxies[network] as RpcProxy
      const wallet = privateKeyToAccount(generatePrivateKey()).address
      await markWalletsKnown([wallet])
      const client = devnet(network)
      // Some blocks before the deposit, so the run's range is wider than the maximum.
      await client.mine({ blocks: 20 })
      const start = (await client.getBlockNumber({ cacheTime: 0 })) - 19n
      const token = demoToken(network)
      await giveTokens(network, {
        token: token.address,
        to: wallet,
        amount: 10n ** BigInt(token.decimals),
      })
      await placeDepositCursor(network, start)
      const asked: bigint[] = []
      const served: bigint[] = []
      proxy.answerWithError(
        (call) => {
          if (call.method !== 'eth_getLogs') return false
          asked.push(rangeOf(call))
          if (rangeOf(call) > SERVED_RANGE) return true
          served.push(rangeOf(call))
          return false
        },
        { code: refusal.code, message: refusal.message },
      )
      try {
        await indexDeposits({ networks: [network] })
        await indexDeposits({ networks: [network] })
      } finally {
        proxy.answerWithError(undefined)
      }

      expect(asked.length).toBeGreaterThan(served.length)
      expect(Math.max(...asked.map(Number))).toBe(Number(MAX_BLOCKS[network]))
      expect(served.length).toBeGreaterThan(1)
      for (const range of served) expect(range).toBeLessThanOrEqual(SERVED_RANGE)
      const { trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'DESC' })
      expect(trades.filter((trade) => trade.type === 'deposit')).toHaveLength(1)
    },
  )
})

describe('a block whose Transfer logs a provider refuses even alone', () => {
  it('is read with recipient filters of at most 1,000 known wallets a query, and its deposit recorded once', async () => {
    const network = 'ethereum'
    const proxy = proxies[network] as RpcProxy
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    // More known wallets than one filter may hold: two recipient queries a block.
    await markWalletsKnown([
      ...Array.from({ length: 1_500 }, () => privateKeyToAccount(generatePrivateKey()).address),
      wallet,
    ])
    const token = demoToken(network)
    const receipt = await giveTokens(network, {
      token: token.address,
      to: wallet,
      amount: 10n ** BigInt(token.decimals),
    })
    await placeDepositCursor(network, receipt.blockNumber)
    const recipientQueries: number[] = []
    let refused = 0
    proxy.answerWithError(
      (call) => {
        if (call.method !== 'eth_getLogs') return false
        const [filter] = (call.params ?? []) as Array<{ topics?: unknown[] }>
        const recipients = filter?.topics?.[2]
        if (Array.isArray(recipients)) {
          recipientQueries.push(recipients.length)
          return false
        }
        refused += 1
        return true
      },
      { code: -32005, message: 'query returned more than 10000 results' },
    )
    let run
    try {
      ;[run] = await indexDeposits({ networks: [network] })
    } finally {
      proxy.answerWithError(undefined)
    }

    expect(run).toMatchObject({ fromBlock: receipt.blockNumber, recorded: 1 })
    const blocks = Number((run?.toBlock ?? 0n) - receipt.blockNumber + 1n)
    // Every range down to each single block was refused, and each block asked in two chunks.
    expect(refused).toBeGreaterThanOrEqual(blocks)
    expect(recipientQueries).toHaveLength(2 * blocks)
    for (const size of recipientQueries) expect(size).toBeLessThanOrEqual(1_000)
    const { trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'DESC' })
    expect(trades.filter((trade) => trade.type === 'deposit')).toEqual([
      expect.objectContaining({ hash: receipt.transactionHash, token: token.address }),
    ])
  }, 60_000)
})
