import '../../support/env'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { handler as getWalletBalances } from '../../../functions/networks/getWalletBalances'
import { loadClientLimitConfig } from '../../../lib/config'
import type { Preview } from '../../../lib/preview/previewSequence'
import { NATIVE_COIN } from '../../../lib/constants'
import { db, tableName } from '../../../lib/db/client'
import { CLIENT_WINDOW_SECONDS } from '../../../lib/db/clientBudget'
import { clientWindowKey } from '../../../lib/db/keys'
import { windowOf } from '../../../lib/db/windowCounter'
import type { NetworkName } from '../../../lib/networkNames'
import { functionName, type OperationName } from '../../../lib/networks/operations'
import { fundedCaller } from '../../support/chainRoutes'
import { deployment } from '../../support/devnetAccounts'
import { httpEvent, lambdaContext } from '../../support/httpEvent'
import { networkHandler, type RouteHandler } from '../../support/networkRoutes'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { uniqueClient } from '../../support/uniqueClient'
import { clearOfWindowEnd } from '../../support/windowEdge'

// Issue 39, item 4: a client that spent its RPC budget on quotes was then served 45 prepares and
// 20 `{key}` swaps in the same minute, none of them charged. Every route that calls a node now
// charges the client's RPC budget at its worst case before its first call (DECISIONS §10.4):
// replayed on the real handlers, the devnets and the table with the deployed budgets, the calls
// counted at the transport (every JSON-RPC call that leaves the process).

type Raw = { statusCode: number; headers?: Record<string, string>; body: string }

/** The client's RPC calls charged in the present minute. */
async function spentOf(sourceIp: string): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: clientWindowKey('rpc', sourceIp, windowOf(CLIENT_WINDOW_SECONDS).startsAt),
      ConsistentRead: true,
    }),
  )
  return Number(Item?.count ?? 0)
}

/** The JSON-RPC calls that left the process while `run` ran (each member of a batch). */
async function callsDuring<Result>(run: () => Promise<Result>) {
  let calls = 0
  const onRequest = (text: unknown) => {
    calls += [JSON.parse(String(text)) as unknown].flat().length
  }
  rpcRequestChannel.subscribe(onRequest)
  try {
    return { result: await run(), calls }
  } finally {
    rpcRequestChannel.unsubscribe(onRequest)
  }
}

/** Sends `event` to `handler`, and counts the JSON-RPC calls that left while it ran. */
async function counted(handler: RouteHandler, event: ReturnType<typeof httpEvent>) {
  let calls = 0
  const methods: string[] = []
  const onRequest = (text: unknown) => {
    const batch = [JSON.parse(String(text)) as { method: string }].flat()
    calls += batch.length
    methods.push(...batch.map((call) => call.method))
  }
  rpcRequestChannel.subscribe(onRequest)
  try {
    const raw = (await handler(event, lambdaContext())) as Raw
    return {
      status: raw.statusCode,
      retryAfter: raw.headers?.['retry-after'],
      calls,
      methods,
      body: JSON.parse(raw.body) as { error?: { message: string } },
    }
  } finally {
    rpcRequestChannel.unsubscribe(onRequest)
  }
}

const ethereum = () => deployment('ethereum')
const quoteQueryOf = () => ({
  amount: '1',
  address0: ethereum().token('LINK'),
  decimals0: '18',
  address1: ethereum().usdStablecoin,
  decimals1: '6',
})
const swapBody = () => ({
  amount: '0.001',
  address0: NATIVE_COIN,
  decimals0: 18,
  address1: ethereum().usdStablecoin,
  decimals1: 6,
})
const transferBody = () => ({
  to: privateKeyToAccount(generatePrivateKey()).address,
  amount: '0.001',
})

async function route(operation: OperationName, network: NetworkName = 'ethereum') {
  return {
    handler: await networkHandler(operation, network),
    name: functionName(operation, network),
  }
}

describe('routes that call a node, after the client spent its RPC budget on quotes', () => {
  it('answers prepares, {key} swaps and transfers, balances and submits 429 with Retry-After, and makes no RPC call', async () => {
    const caller = await fundedCaller()
    const attacker = uniqueClient()
    const auth = { authorization: `Bearer ${caller.access}` }
    const quote = await route('quote')
    // Both sides' pools read once by another client: the flood's quotes are warm.
    expect(
      (
        await counted(
          quote.handler,
          httpEvent({ route: quote.name, queryStringParameters: quoteQueryOf() }),
        )
      ).status,
    ).toBe(200)
    // The whole replay inside one minute of the budget's (never across a window's end): at the
    // start of a fresh one.
    await clearOfWindowEnd(CLIENT_WINDOW_SECONDS, CLIENT_WINDOW_SECONDS - 2)
    const window = windowOf(CLIENT_WINDOW_SECONDS).startsAt
    const quoteQuery = quoteQueryOf()

    // The quote budget spent: quotes, 7 at a time (what 300 calls admit at 40 each), until a
    // whole wave is refused: with nothing in flight, less than a quote's worst case is left.
    let quotes = 0
    let quoteCalls = 0
    let quoteRefused = false
    for (let wave = 0; wave < 30 && !quoteRefused; wave++) {
      const { result, calls } = await callsDuring(() =>
        Promise.all(
          Array.from({ length: 7 }, () =>
            quote.handler(
              httpEvent({
                route: quote.name,
                queryStringParameters: quoteQuery,
                sourceIp: attacker,
              }),
              lambdaContext(),
            ),
          ),
        ),
      )
      const served = (result as Raw[]).filter((raw) => raw.statusCode === 200).length
      quotes += served
      quoteCalls += calls
      quoteRefused = served === 0
    }
    // Then in the same minute, from the same client, what the issue saw served.
    const prepare = await route('prepareSwapTokens')
    const swap = await route('swapTokens')
    const transfer = await route('transfer')
    const prepareTransfer = await route('prepareTransfer')
    const submit = await route('submit')
    const attempts: Array<[string, () => ReturnType<typeof counted>, number]> = [
      [
        'prepare swap',
        () =>
          counted(
            prepare.handler,
            httpEvent({ route: prepare.name, headers: auth, body: swapBody(), sourceIp: attacker }),
          ),
        45,
      ],
      [
        '{key} swap',
        () =>
          counted(
            swap.handler,
            httpEvent({
              route: swap.name,
              pathParameters: { key: caller.privateKey },
              headers: auth,
              body: swapBody(),
              sourceIp: attacker,
            }),
          ),
        20,
      ],
      [
        '{key} transfer',
        () =>
          counted(
            transfer.handler,
            httpEvent({
              route: transfer.name,
              pathParameters: { key: caller.privateKey },
              headers: auth,
              body: transferBody(),
              sourceIp: attacker,
            }),
          ),
        5,
      ],
      [
        'prepare transfer',
        () =>
          counted(
            prepareTransfer.handler,
            httpEvent({
              route: prepareTransfer.name,
              headers: auth,
              body: transferBody(),
              sourceIp: attacker,
            }),
          ),
        5,
      ],
      [
        'balances',
        () =>
          counted(
            getWalletBalances,
            httpEvent({ route: 'getWalletBalances', headers: auth, sourceIp: attacker }),
          ),
        5,
      ],
      [
        'submit',
        () =>
          counted(
            submit.handler,
            httpEvent({
              route: submit.name,
              headers: auth,
              // A signed transaction's shape; refused before it is decoded.
              body: { transactions: [`0x02${'00'.repeat(100)}`] },
              sourceIp: attacker,
            }),
          ),
        2,
      ],
    ]
    const outcome: Record<string, { served: number; refused: number; calls: number }> = {}
    const retryAfters: number[] = []
    const attempt = async (name: string, send: () => ReturnType<typeof counted>) => {
      const answer = await send()
      const tally = (outcome[name] ??= { served: 0, refused: 0, calls: 0 })
      if (answer.status === 429) {
        tally.refused += 1
        retryAfters.push(Number(answer.retryAfter))
      } else tally.served += 1
      tally.calls += answer.calls
      return answer
    }
    for (const [name, send, times] of attempts) {
      for (let index = 0; index < times; index++) await attempt(name, send)
    }
    // Balances (the smallest worst case) until refused: what is left is less than any route's.
    const balances = attempts.find(([name]) => name === 'balances')?.[1]
    for (let tries = 0; balances && tries < 20; tries++) {
      if ((await attempt('balances', balances)).status === 429) break
    }
    // Then once more each: whatever was left of the budget is gone.
    const last: Array<Awaited<ReturnType<typeof counted>>> = []
    for (const [name, send] of attempts) last.push(await attempt(`${name} again`, send))
    // The figures of the report (before: served and calls made; after: none beyond the budget).
    console.info(
      `metered routes replay: ${quotes} quotes (${quoteCalls} calls), then ${JSON.stringify(outcome)}`,
    )

    expect(quotes).toBeGreaterThan(0)
    expect(quoteRefused).toBe(true)
    // One window throughout (a replay slower than a minute would find a fresh budget halfway).
    expect(windowOf(CLIENT_WINDOW_SECONDS).startsAt).toBe(window)
    // A route whose worst case is more than a quote's (a refused quote leaves less) is refused
    // every time, before any call: the prepared (48) and `{key}` (236) swaps, the submits (192).
    for (const name of ['prepare swap', '{key} swap', 'submit']) {
      const times = attempts.find(([candidate]) => candidate === name)?.[2]
      expect({ name, ...outcome[name] }).toEqual({ name, served: 0, refused: times, calls: 0 })
    }
    // The cheaper routes are served only from what the quotes left: the client's calls in the
    // minute, quotes included, never pass its budget.
    const calls = Object.values(outcome).reduce((sum, tally) => sum + tally.calls, quoteCalls)
    expect(calls).toBeLessThanOrEqual(loadClientLimitConfig().rpc)
    // And the budget holds exactly the calls that left: each request charged its worst case and
    // refunded the rest.
    expect(await spentOf(attacker)).toBe(calls)
    // And once that is spent, every route is 429 with no call.
    expect(last.map(({ status, calls: made }) => ({ status, made }))).toEqual(
      attempts.map(() => ({ status: 429, made: 0 })),
    )
    expect(retryAfters.length).toBeGreaterThan(attempts.length)
    for (const seconds of retryAfters) {
      expect(seconds).toBeGreaterThanOrEqual(1)
      expect(seconds).toBeLessThanOrEqual(CLIENT_WINDOW_SECONDS)
    }
  }, 180_000)

  it('refuses a {key} swap the wallet cannot pay after the first batch of reads (no simulation or estimate); prepare names it in its preview', async () => {
    const caller = await fundedCaller()
    const prepare = await route('prepareSwapTokens')
    const swap = await route('swapTokens')
    // 10 coins held; 1,000 asked.
    const body = { ...swapBody(), amount: '1000' }
    const auth = { authorization: `Bearer ${caller.access}` }

    const prepared = await counted(
      prepare.handler,
      httpEvent({ route: prepare.name, headers: auth, body }),
    )
    const swapped = await counted(
      swap.handler,
      httpEvent({
        route: swap.name,
        pathParameters: { key: caller.privateKey },
        headers: auth,
        body,
      }),
    )
    console.info(
      `insufficient balance: prepare ${prepared.calls} calls (${prepared.methods.sort().join(', ')}); {key} swap ${swapped.calls} calls`,
    )

    expect({ status: swapped.status, message: swapped.body.error?.message }).toEqual({
      status: 422,
      message: expect.stringMatching(/^insufficient balance/),
    })
    // Only the first batch left: no simulation (eth_simulateV1 or the probe's eth_call beyond
    // the lens's) and no estimate.
    expect(swapped.methods).not.toContain('eth_estimateGas')
    expect(swapped.methods).not.toContain('eth_simulateV1')
    // Prepare answers the transactions with their preview (DECISIONS §10.2): the wallet may top
    // up before it signs. Simulated as if it held the coin it sends, within its budget.
    expect(prepared.status).toBe(200)
    const { preview } = (prepared.body as { result: { preview: Preview } }).result
    expect(preview.issues[0]).toMatchObject({
      type: 'insufficientBalance',
      token: NATIVE_COIN,
      available: parseEther('10').toString(),
    })
    expect(preview.transactions.map((transaction) => transaction.status)).toEqual(['success'])
  })
})
