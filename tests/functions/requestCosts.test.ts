import '../support/env'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { db } from '../../lib/db/client'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'
import { countRequests, formatCounts, type RequestTally } from '../support/requestCounters'
import { routeRequests } from '../support/routeRequests'

// What one warm request of each /api/v1 route costs (issue 7, "Per-request cost"): DynamoDB
// commands by name, JSON-RPC calls by method and the HTTP round trips carrying them. Each route
// is sent once to warm its caches (clients, token decimals) and then once more, measured.

interface Cost {
  dynamo: string
  rpc: string
  roundTrips: number
  /** DynamoDB round trips one after another (tests/support/requestCounters.ts, criticalPath). */
  dynamoSteps: number
  /** DynamoDB and RPC round trips one after another: what the caller waits for in sequence. */
  steps: number
}

const row = (
  dynamo: string,
  rpc: string,
  roundTrips: number,
  dynamoSteps: number,
  steps: number,
): Cost => ({
  dynamo,
  rpc: rpc.split(', ').filter(Boolean).sort().join(', '),
  roundTrips,
  dynamoSteps,
  steps,
})
// A signed send: the session (GetItem), the Idempotency-Key's claim (PutItem) and the wallet's
// trade tail counter (GetItem: the next position) beside the chain reads, then, after the
// broadcast, one transaction recording the trade and completing the key: 3 sequential steps, 2
// of them DynamoDB's.
const SIGNED_WRITES = 'GetItem ×2, PutItem ×1, TransactWriteItems ×1'
// Block, nonce and tip batched with the balance reads (a swap's with the route's pools), the
// estimate (a swap's beside the route's simulation), then the broadcast.
const SEND =
  'eth_getBlockByNumber ×1, eth_getTransactionCount ×1, eth_maxPriorityFeePerGas ×1, ' +
  'eth_sendRawTransaction ×1'

// A quote's route (bestRoute): the pool lens's eth_calls with the gas price and the block, then
// the route's simulation (and the best V2 route's beside it unless that is the route).
const QUOTE = 'eth_blockNumber ×1, eth_gasPrice ×1'

// Prepare: the session beside the catalog's tokens (the known-token check, before any chain call:
// issue 22), then the send's reads with the native balance and the estimate (one batch). Nothing
// sent.
const PREPARE_READS = 'BatchGetItem ×1, GetItem ×1'
const PREPARE =
  'eth_getBalance ×1, eth_getBlockByNumber ×1, eth_getTransactionCount ×1, ' +
  'eth_maxPriorityFeePerGas ×1'
// Submit of a swap with the router approved: the pending nonce beside the session, the claim and
// the catalog (the swap's tokens must be known, their decimals come from it: no contract is
// called before it is known, issue 22), then the broadcast.
const SUBMIT_WRITES = `BatchGetItem ×1, ${SIGNED_WRITES}`
const SUBMIT = 'eth_getTransactionCount ×1, eth_sendRawTransaction ×1'

// One warm request each, in the order of serverless.yml. Swaps and transfers send an
// Idempotency-Key (its claim is the PutItem, its completion in the trade's transaction) with the
// router already approved; the trade routes read a pending trade whose receipt the node does not have.
// Columns: DynamoDB commands, RPC calls, RPC round trips, then the sequential steps: DynamoDB
// round trips one after another, and DynamoDB and RPC round trips one after another.
// prettier-ignore
const EXPECTED: Record<string, Cost> = {
  'GET /api/v1/networks':                          row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/auth/nonce/{address}':              row('TransactWriteItems ×1, UpdateItem ×1', '', 0, 2, 2),
  'POST /api/v1/auth/login':                       row('Query ×1, TransactWriteItems ×1, UpdateItem ×2', '', 0, 3, 3),
  'GET /api/v1/auth/refresh':                      row('TransactWriteItems ×1', '', 0, 1, 1),
  'DELETE /api/v1/auth/logout':                    row('DeleteItem ×1', '', 0, 1, 1),
  'GET /api/v1/wallet/mnemonic':                   row('', '', 0, 0, 0),
  'POST /api/v1/wallet/create':                    row('', '', 0, 0, 0),
  'POST /api/v1/wallet/recover/mnemonic':          row('', '', 0, 0, 0),
  'POST /api/v1/wallet/recover/key':               row('', '', 0, 0, 0),
  'POST /api/v1/account/register':                 row('PutItem ×1, UpdateItem ×1', '', 0, 2, 2),
  'POST /api/v1/account/login':                    row('GetItem ×1, TransactWriteItems ×1, UpdateItem ×3', '', 0, 4, 4),
  'GET /api/v1/account/refresh':                   row('TransactWriteItems ×1', '', 0, 1, 1),
  'DELETE /api/v1/account/logout':                 row('DeleteItem ×1', '', 0, 1, 1),
  'GET /api/v1/swap/tokens':                       row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/swap/quote/altchain':               row('', `eth_call ×7, ${QUOTE}`, 2, 0, 2),
  'GET /api/v1/swap/quote/ethereum':               row('', `eth_call ×6, ${QUOTE}`, 2, 0, 2),
  'POST /api/v1/swap/native/altchain/{key}':       row(SIGNED_WRITES, `eth_call ×8, eth_estimateGas ×2, ${QUOTE}, ${SEND}, eth_getBalance ×1`, 3, 2, 4),
  'POST /api/v1/swap/tokens/altchain/{key}':       row(SIGNED_WRITES, `eth_call ×10, eth_estimateGas ×1, ${QUOTE}, ${SEND}`, 3, 2, 4),
  'POST /api/v1/swap/tokens/ethereum/{key}':       row(SIGNED_WRITES, `eth_call ×9, eth_estimateGas ×1, ${QUOTE}, ${SEND}`, 3, 2, 4),
  'POST /api/v1/transfer/tokens/altchain/{key}':   row(SIGNED_WRITES, `eth_call ×2, eth_estimateGas ×1, ${SEND}`, 2, 2, 3),
  'POST /api/v1/transfer/tokens/ethereum/{key}':   row(SIGNED_WRITES, `eth_call ×2, eth_estimateGas ×1, ${SEND}`, 2, 2, 3),
  'POST /api/v1/prepare/swap/tokens/ethereum':     row(PREPARE_READS, `eth_call ×9, eth_estimateGas ×1, ${QUOTE}, ${PREPARE}`, 2, 1, 3),
  'POST /api/v1/prepare/swap/tokens/altchain':     row(PREPARE_READS, `eth_call ×10, eth_estimateGas ×1, ${QUOTE}, ${PREPARE}`, 2, 1, 3),
  'POST /api/v1/prepare/swap/native/altchain':     row(PREPARE_READS, `eth_call ×8, eth_estimateGas ×2, ${QUOTE}, ${PREPARE}`, 2, 1, 3),
  'POST /api/v1/prepare/transfer/tokens/ethereum': row(PREPARE_READS, `eth_call ×2, eth_estimateGas ×1, ${PREPARE}`, 1, 1, 2),
  'POST /api/v1/prepare/transfer/tokens/altchain': row(PREPARE_READS, `eth_call ×2, eth_estimateGas ×1, ${PREPARE}`, 1, 1, 2),
  'POST /api/v1/submit/ethereum':                  row(SUBMIT_WRITES, SUBMIT, 2, 2, 4),
  'POST /api/v1/submit/altchain':                  row(SUBMIT_WRITES, SUBMIT, 2, 2, 4),
  'POST /api/v1/networks/wallet':                  row('TransactWriteItems ×1', '', 0, 1, 1),
  'GET /api/v1/networks/wallet/balance':           row('GetItem ×1, Query ×1', 'eth_getBalance ×2', 2, 1, 2),
  'GET /api/v1/watchlist/projects':                row('BatchGetItem ×1, Query ×1', '', 0, 2, 2),
  'POST /api/v1/watchlist/{projectId}':            row('TransactWriteItems ×1', '', 0, 1, 1),
  'DELETE /api/v1/watchlist/{projectId}':          row('TransactWriteItems ×1', '', 0, 1, 1),
  'GET /api/v1/project/{projectId}':               row('BatchGetItem ×1', '', 0, 1, 1),
  'GET /api/v1/price/history/daily/{projectId}':   row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/price/history/monthly/{projectId}': row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/price/history/yearly/{projectId}':  row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/trades':                            row('GetItem ×1, Query ×1', '', 0, 1, 1),
  'GET /api/v1/trade/hash/{hash}':                 row('GetItem ×1, Query ×1', 'eth_getTransactionReceipt ×1', 1, 1, 2),
  'GET /api/v1/trade/id/{tradeId}':                row('GetItem ×2', 'eth_getTransactionReceipt ×1', 1, 1, 2),
}

const measured = new Map<string, RequestTally & { status: number; read: boolean }>()
/** Routes whose handler takes a token (their definition's `auth`). */
const authenticated = new Set<string>()

beforeAll(async () => {
  for (const fn of declaredFunctions()) {
    if (!fn.route) continue
    const { handler } = (await import(`../../${fn.entry}`)) as {
      handler: { route: { auth: unknown } }
    }
    if (handler.route && handler.route.auth !== 'none')
      authenticated.add(`${fn.route.method} ${fn.route.path}`)
  }
  const routes = await routeRequests(inject('deployments'))
  const counter = countRequests(db())
  try {
    for (const route of routes) {
      await (
        await route.prepare()
      )() // warm
      const request = await route.prepare()
      counter.take()
      const response = await request()
      measured.set(route.routeKey, { ...counter.take(), status: response.status, read: route.read })
    }
  } finally {
    counter.stop()
  }
}, 240_000)

const actual = (route: string): Cost => {
  const tally = measured.get(route)
  if (!tally) throw new Error(`${route} was not measured`)
  return row(
    formatCounts(tally.dynamo.byCommand),
    formatCounts(tally.rpc.byMethod),
    tally.rpc.roundTrips,
    tally.steps.dynamo,
    tally.steps.all,
  )
}

describe('per-request cost of every route, warm', () => {
  it('sends one valid request to each of the 40 /api/v1 routes of serverless.yml', () => {
    const declared = declaredFunctions()
      .flatMap((fn) => (fn.route ? [`${fn.route.method} ${fn.route.path}`] : []))
      .filter((route) => route.includes(' /api/v1/'))

    expect(declared).toHaveLength(40)
    expect([...measured.keys()].sort()).toEqual(declared.sort())
    for (const [route, tally] of measured)
      expect({ route, status: tally.status }).toEqual({ route, status: 200 })
  })

  it('costs exactly the DynamoDB commands, RPC calls and round trips of the table', () => {
    const costs = Object.fromEntries([...measured.keys()].map((route) => [route, actual(route)]))

    expect(costs).toEqual(EXPECTED)
  })
})

describe('the per-request goals of issue 7', () => {
  const dynamoCalls = (route: string) => measured.get(route)?.dynamo.calls
  const calls = (routes: string[]) =>
    Object.fromEntries(routes.map((route) => [route, dynamoCalls(route)]))

  it('reads the table at most twice on every read route', () => {
    const reads = [...measured].filter(([, tally]) => tally.read).map(([route]) => route)
    const over = Object.fromEntries(
      Object.entries(calls(reads)).filter(([, count]) => (count ?? 0) > 2),
    )

    expect(reads).toHaveLength(22)
    // The watchlist: the watch items (a Query), then the projects' live metrics with the
    // caller's session (a BatchGetItem per 100 keys; sessionRead: 'route').
    expect(over).toEqual({})
  })

  it('reads price history and project details in one call each', () => {
    expect(
      calls([
        'GET /api/v1/price/history/daily/{projectId}',
        'GET /api/v1/price/history/monthly/{projectId}',
        'GET /api/v1/price/history/yearly/{projectId}',
        'GET /api/v1/project/{projectId}',
      ]),
    ).toEqual({
      'GET /api/v1/price/history/daily/{projectId}': 1,
      'GET /api/v1/price/history/monthly/{projectId}': 1,
      'GET /api/v1/price/history/yearly/{projectId}': 1,
      'GET /api/v1/project/{projectId}': 1,
    })
    // Project details takes an account token: the session is read in the same BatchGetItem as
    // the project and its metrics (sessionRead: 'route').
    expect(measured.get('GET /api/v1/project/{projectId}')?.dynamo.byCommand).toEqual({
      BatchGetItem: 1,
    })
  })

  it('refreshes with one DynamoDB call (the conditional rotation), and logs in with at most five and no RPC call', () => {
    // A login adds to the issue-7 budget of three the per-IP count and the attempt reservation
    // (DECISIONS §7.1), each one conditional UpdateItem; the account's also gives its attempt back.
    expect(calls(['GET /api/v1/auth/refresh', 'GET /api/v1/account/refresh'])).toEqual({
      'GET /api/v1/auth/refresh': 1,
      'GET /api/v1/account/refresh': 1,
    })
    for (const route of ['POST /api/v1/auth/login', 'POST /api/v1/account/login']) {
      const counted = measured.get(route)
      expect({
        route,
        atMostFive: (counted?.dynamo.calls ?? 99) <= 5,
        rpc: counted?.rpc.calls,
      }).toEqual({ route, atMostFive: true, rpc: 0 })
    }
  })

  it('quotes in two round trips: the pools, gas price and block, then the simulation', () => {
    // DECISIONS §8.1: the lens reads every pool among the ends, the base tokens and the configured
    // connectors (ceil(lookups / 24) eth_calls, bounded by the configuration); the search runs on
    // that state; then the chosen route's router call is simulated (with the best V2 route's
    // beside it where they differ). Warm: the input token's balance slot is known from the
    // warm-up request (a cold quote finds it beside the pools: tests/functions/swap/tokenZoo.test.ts).
    for (const route of ['GET /api/v1/swap/quote/ethereum', 'GET /api/v1/swap/quote/altchain']) {
      const rpc = measured.get(route)?.rpc

      expect({ route, roundTrips: rpc?.roundTrips }).toEqual({ route, roundTrips: 2 })
    }
  })
})

describe('the per-request goals of issue 14', () => {
  const stepsOf = (route: string) => {
    const tally = measured.get(route)
    return {
      roundTrips: tally?.rpc.roundTrips,
      dynamoSteps: tally?.steps.dynamo,
      steps: tally?.steps.all,
    }
  }

  it('answers every authenticated read route after one DynamoDB round trip, the watchlist after two', () => {
    const reads = [...measured]
      .filter(([route, tally]) => tally.read && authenticated.has(route))
      .map(([route]) => route)
    const steps = Object.fromEntries(reads.map((route) => [route, stepsOf(route).dynamoSteps]))

    // Trades, the two trade lookups, balances, project details, the watchlist, the five prepares.
    expect(reads).toHaveLength(11)
    // The session is read beside the route's own request (sessionRead 'beside'), or within it
    // ('route': a key in its BatchGetItem). The watchlist's own data is two requests one after
    // the other: its watches (a Query), then their projects with the session (a BatchGetItem).
    expect(steps).toEqual(
      Object.fromEntries(
        reads.map((route) => [route, route === 'GET /api/v1/watchlist/projects' ? 2 : 1]),
      ),
    )
  })

  it('transfers and submits in 2 RPC round trips, swaps in 3, with the allowance given', () => {
    const sending = [...measured.keys()].filter((route) =>
      /\/(swap|transfer)\/.*\{key\}|\/submit\//.test(route),
    )
    // The session check, the Idempotency-Key's claim and the chain reads at once (a transfer's
    // with its gas estimate; a swap's with the route's pools, then the route simulated beside the
    // swap's estimate); the broadcast; one transaction recording the trade and completing the
    // key. A submit's chain reads wait for the catalog: no chain call before its targets are
    // known (DECISIONS §8.2, issue 22).
    expect(sending).toHaveLength(7)
    for (const route of sending) {
      const swap = route.includes('/swap/')
      expect({ route, ...stepsOf(route) }).toEqual({
        route,
        roundTrips: swap ? 3 : 2,
        dynamoSteps: 2,
        steps: route.includes('/submit/') || swap ? 4 : 3,
      })
    }
  })

  it("writes the watchlist and a wallet's networks in one DynamoDB call that checks the session", () => {
    for (const route of [
      'POST /api/v1/watchlist/{projectId}',
      'DELETE /api/v1/watchlist/{projectId}',
      'POST /api/v1/networks/wallet',
    ]) {
      expect({ route, calls: measured.get(route)?.dynamo.byCommand }).toEqual({
        route,
        calls: { TransactWriteItems: 1 },
      })
    }
  })
})
