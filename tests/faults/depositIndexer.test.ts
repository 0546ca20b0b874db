import '../support/env'
import { randomUUID } from 'node:crypto'
import { parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { depositCursorOf, placeDepositCursor } from '../support/depositCursor'
import { listTrades } from '../../lib/db/trade'
import { markWalletsKnown } from '../../lib/db/wallet'
import { ChainUnavailable } from '../../lib/errors'
import { indexDeposits } from '../../lib/trades/indexDeposits'
import { listInCatalog } from '../support/catalogListing'
import { createTable } from '../../lib/local/localTable'
import { type RpcProxy, startRpcProxy } from '../support/faultEngines'
import { devnet } from '../support/devnetAccounts'
import { fundedAccount } from '../support/devnetAccounts'
import { demoToken, giveTokens } from '../support/tradeFixtures'

// The deposit indexer against a node that fails one call of a run: the ERC-20 `decimals()` read
// that comes after the logs and receipts were read. A real anvil cannot fail one call, so the
// shared ethereum devnet is reached through a proxy that refuses it. The table is this file's
// own (on the shared engine): the cursor must be ours alone, or another indexer could record the
// deposit first.

const DECIMALS_SELECTOR = '0x313ce567'

let proxy: RpcProxy

beforeAll(async () => {
  proxy = await startRpcProxy(inject('deployments').ethereum.rpcUrl)
  const tableName = `wallet-backend-faults-${randomUUID().slice(0, 8)}`
  await createTable(String(process.env.DYNAMODB_ENDPOINT), tableName)
  // Before any module reads its configuration: the modules build their clients on first use.
  Object.assign(process.env, { TABLE_NAME: tableName, ETHEREUM_RPC_URL: proxy.url })
  // Only catalog tokens' transfers are deposits (DECISIONS §8.2).
  await listInCatalog('ethereum', demoToken('ethereum'))
})

afterAll(async () => {
  await proxy?.close()
})

const isDecimalsCall = (call: { method: string; params?: unknown[] }) =>
  call.method === 'eth_call' &&
  String((call.params?.[0] as { data?: string; input?: string } | undefined)?.data ?? '')
    .toLowerCase()
    .startsWith(DECIMALS_SELECTOR)

describe('a node that fails the token decimals read of an indexer run', () => {
  it('fails the run without moving the cursor, then records the deposit once it answers', async () => {
    const network = 'ethereum'
    const token = demoToken(network)
    const wallet = await fundedAccount(network, { native: parseEther('1') })
    await markWalletsKnown([wallet.address])
    const head = await devnet(network).getBlockNumber({ cacheTime: 0 })
    await placeDepositCursor(network, head + 1n)
    await giveTokens(network, {
      token: token.address,
      to: wallet.address,
      amount: parseUnits('7.5', token.decimals),
    })

    proxy.refuse(isDecimalsCall)
    const failed = await indexDeposits({ networks: [network] }).catch((error: unknown) => error)
    proxy.refuse(undefined)

    expect(failed).toBeInstanceOf(ChainUnavailable)
    expect(await depositCursorOf(network)).toBe(head + 1n)
    expect(
      (await listTrades({ wallet: wallet.address, limit: 10, offset: 0, direction: 'ASC' })).count,
    ).toBe(0)

    const [run] = await indexDeposits({ networks: [network] })

    expect(run).toMatchObject({ network, recorded: 1 })
    const { trades } = await listTrades({
      wallet: wallet.address,
      limit: 10,
      offset: 0,
      direction: 'ASC',
    })
    expect(trades).toEqual([
      expect.objectContaining({
        type: 'deposit',
        status: 'successful',
        token: token.address,
        amount: '7.5',
      }),
    ])
  })
})
