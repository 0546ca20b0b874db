import '../support/env'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { loadClientLimitConfig } from '../../lib/config'
import { db } from '../../lib/db/client'
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../../lib/networkNames'
import { DEFAULT_NETWORKS, NETWORK_ENTRIES } from '../../lib/networks'
import { functionName, type OperationName, operationsOf } from '../../lib/networks/operations'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'
import { declaredHandler } from '../support/declaredHandler'
import { routeKeyOf } from '../support/httpEvent'
import { byCatalog, type DemoCatalog } from '../support/networkCases'
import { countRequests, formatCounts, type RequestTally } from '../support/requestCounters'
import { routeRequests } from '../support/routeRequests'
import {
  type CostRow,
  documentedCostTable,
  renderCostTable,
  tableCells,
  writeCostTable,
} from '../support/costTable'

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
// A signed send: the session (GetItem) and the wallet's trade tail counter (GetItem: the next
// position); the Idempotency-Key's claim (PutItem), a write, once the session is admitted; the
// chain reads; the broadcast; then one transaction recording the trade and completing the key.
const SIGNED_WRITES = 'GetItem ×2, PutItem ×1, TransactWriteItems ×1'
// Every route that calls a node: its client's RPC budget charged the route's worst case before
// its core (beside a session read beside it), and the unspent part refunded once done (DECISIONS
// §10.4, lib/http/rpcBudget.ts): two UpdateItems, each a DynamoDB step of its own.
const METERED = 'UpdateItem ×2'
// Block, nonce and tip batched with the balance reads (a swap's with the route's pools), the
// estimate (a swap's beside the route's simulation), then the broadcast.
const SEND =
  'eth_getBlockByNumber ×1, eth_getTransactionCount ×1, eth_maxPriorityFeePerGas ×1, ' +
  'eth_sendRawTransaction ×1'

// A quote's route (lib/routing/quote/bestRoute.ts): the pool lens's eth_calls with the gas price and
// the block, then the split's simulation (warm: both ends seen plain, so no fee-on-transfer plan
// is simulated beside it).
const QUOTE = 'eth_blockNumber ×1, eth_gasPrice ×1'

// Prepare: the session beside the catalog's tokens (the known-token check, before any chain call:
// issue 22), then the send's reads with the native balance and the estimate (one batch). Nothing
// sent.
const PREPARE_READS = 'BatchGetItem ×1, GetItem ×1'
const PREPARE =
  'eth_getBalance ×1, eth_getBlockByNumber ×1, eth_getTransactionCount ×1, ' +
  'eth_maxPriorityFeePerGas ×1'
// The preview (DECISIONS §10.2): the sequence simulated once the reads chose it, a round trip of
// its own before a prepare answers or a {key} route sends.
const PREVIEW = 'eth_simulateV1 ×1'
// Submit of a swap with the router approved: the session (the guard's GetItem), then the claim,
// the trade tail and the catalog (the swap's tokens must be known, their decimals come from it:
// no contract is called before it is known, issue 22), then the pending nonce, the broadcast and
// the record.
const SUBMIT_WRITES = `BatchGetItem ×1, ${SIGNED_WRITES}, ${METERED}`
const SUBMIT = 'eth_getTransactionCount ×1, eth_sendRawTransaction ×1'

// Each network's routes (lib/networks/operations.ts) cost what its demo catalog's pools and
// connectors make its quotes read: a row per operation by catalog. A swap or prepare reads the
// recipient's balance of the output beside the pools (its gas: a balance written from 0 costs
// 17,100 more, lib/routing/gas/freshRecipient.ts): one eth_call more than an anonymous quote's.
// prettier-ignore
const NETWORK_ROWS: Record<DemoCatalog, Record<OperationName, Cost | undefined>> = {
  ethereum: {
    quote:             row(METERED, `eth_call ×5, ${QUOTE}`, 2, 2, 4),
    swapTokens:        row(`${SIGNED_WRITES}, ${METERED}`, `eth_call ×10, eth_estimateGas ×1, ${QUOTE}, ${SEND}, ${PREVIEW}`, 4, 5, 8),
    swapNative:        undefined,
    transfer:          row(`${SIGNED_WRITES}, ${METERED}`, `eth_call ×2, eth_estimateGas ×1, ${SEND}, ${PREVIEW}`, 3, 4, 6),
    prepareSwapTokens: row(`${PREPARE_READS}, ${METERED}`, `eth_call ×10, eth_estimateGas ×1, ${QUOTE}, ${PREPARE}, ${PREVIEW}`, 3, 3, 6),
    prepareSwapNative: undefined,
    prepareTransfer:   row(`${PREPARE_READS}, ${METERED}`, `eth_call ×2, eth_estimateGas ×1, ${PREPARE}, ${PREVIEW}`, 2, 3, 5),
    submit:            row(SUBMIT_WRITES, SUBMIT, 2, 5, 7),
  },
  altchain: {
    quote:             row(METERED, `eth_call ×6, ${QUOTE}`, 2, 2, 4),
    swapTokens:        row(`${SIGNED_WRITES}, ${METERED}`, `eth_call ×11, eth_estimateGas ×1, ${QUOTE}, ${SEND}, ${PREVIEW}`, 4, 5, 8),
    swapNative:        row(`${SIGNED_WRITES}, ${METERED}`, `eth_call ×8, eth_estimateGas ×1, ${QUOTE}, ${SEND}, eth_getBalance ×1, ${PREVIEW}`, 4, 5, 8),
    transfer:          row(`${SIGNED_WRITES}, ${METERED}`, `eth_call ×2, eth_estimateGas ×1, ${SEND}, ${PREVIEW}`, 3, 4, 6),
    prepareSwapTokens: row(`${PREPARE_READS}, ${METERED}`, `eth_call ×11, eth_estimateGas ×1, ${QUOTE}, ${PREPARE}, ${PREVIEW}`, 3, 3, 6),
    prepareSwapNative: row(`${PREPARE_READS}, ${METERED}`, `eth_call ×8, eth_estimateGas ×1, ${QUOTE}, ${PREPARE}, ${PREVIEW}`, 3, 3, 6),
    prepareTransfer:   row(`${PREPARE_READS}, ${METERED}`, `eth_call ×2, eth_estimateGas ×1, ${PREPARE}, ${PREVIEW}`, 2, 3, 5),
    submit:            row(SUBMIT_WRITES, SUBMIT, 2, 5, 7),
  },
}

/**
 * An L2's quote asks its GasPriceOracle for the L1 fee (lib/routing/gas/l1Fee.ts): one eth_call
 * more in the simulations' batch for every route that quotes, no round trip more.
 */
function withL1Fee(network: NetworkName, operation: OperationName, cost: Cost | undefined) {
  const quotes = ['quote', 'swapTokens', 'swapNative', 'prepareSwapTokens', 'prepareSwapNative']
  if (!cost || !NETWORK_ENTRIES[network].l1Fee || !quotes.includes(operation)) return cost
  const rpc = cost.rpc.replace(
    /eth_call ×(\d+)/,
    (_, calls: string) => `eth_call ×${Number(calls) + 1}`,
  )
  return { ...cost, rpc }
}

/** Each network's routes and what each costs: a network of the table is measured like the rest. */
const networkRows = Object.fromEntries(
  NETWORK_NAMES.flatMap((network) =>
    operationsOf(NETWORKS[network].routes).map((operation) => {
      const cost = withL1Fee(
        network,
        operation.name,
        byCatalog(network, NETWORK_ROWS)[operation.name],
      )
      if (!cost) throw new Error(`no cost for ${operation.name} on ${network}'s catalog`)
      return [routeKeyOf(functionName(operation.name, network)), cost]
    }),
  ),
)
const networkRoutes = Object.keys(networkRows)
/**
 * The routes of networks beyond the default stage's two (the suite's stack serves them all):
 * measured and checked above like the rest, but docs/security.md lists a default stage's routes.
 */
const addedNetworkRoutes = new Set(
  NETWORK_NAMES.filter(
    (network) => !(DEFAULT_NETWORKS as readonly string[]).includes(network),
  ).flatMap((network) =>
    operationsOf(NETWORKS[network].routes).map((operation) =>
      routeKeyOf(functionName(operation.name, network)),
    ),
  ),
)
/** Quotes and prepares: a network's routes that change nothing. */
const networkReads = networkRoutes.filter((route) =>
  / \/api\/v1\/(swap\/quote|prepare)\//.test(route),
)

// One warm request each, in the order of serverless.yml. The nonce: the client's budget, then the
// nonce in the client's own partition (DECISIONS §10.4). The wallet login without `nonce`: the
// client's budget, its client's nonces, the session transaction (an EOA's check reserves no
// attempt). The account login: the client's budget, the client's and the name's checks (the
// account read beside them), the session transaction that gives them back. A quote: the client's
// RPC budget (one UpdateItem, before the chain reads), then the route's two round trips. Swaps and transfers send an
// Idempotency-Key (its claim is the PutItem, its completion in the trade's transaction) with the
// router already approved; the trade routes read a pending trade whose receipt the node does not have.
// Columns: DynamoDB commands, RPC calls, RPC round trips, then the sequential steps: DynamoDB
// round trips one after another, and DynamoDB and RPC round trips one after another. A guarded
// route's session is one GetItem: before the rest (sessionRead 'guard': logout, refresh, the
// watchlist and network writes, swaps, submits) or beside it ('beside': the other guarded
// routes).
// prettier-ignore
const EXPECTED: Record<string, Cost> = {
  'GET /api/v1/networks':                          row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/auth/nonce/{address}':              row('PutItem ×1, UpdateItem ×1', '', 0, 2, 2),
  'POST /api/v1/auth/login':                       row('Query ×1, TransactWriteItems ×1, UpdateItem ×1', '', 0, 3, 3),
  'GET /api/v1/auth/refresh':                      row('GetItem ×1, TransactWriteItems ×1', '', 0, 2, 2),
  'DELETE /api/v1/auth/logout':                    row('DeleteItem ×1, GetItem ×1', '', 0, 2, 2),
  'GET /api/v1/wallet/mnemonic':                   row('', '', 0, 0, 0),
  'POST /api/v1/wallet/create':                    row('', '', 0, 0, 0),
  'POST /api/v1/wallet/recover/mnemonic':          row('', '', 0, 0, 0),
  'POST /api/v1/wallet/recover/key':               row('', '', 0, 0, 0),
  'POST /api/v1/account/register':                 row('PutItem ×1, UpdateItem ×1', '', 0, 2, 2),
  'POST /api/v1/account/login':                    row('GetItem ×1, TransactWriteItems ×1, UpdateItem ×3', '', 0, 4, 4),
  'GET /api/v1/account/refresh':                   row('GetItem ×1, TransactWriteItems ×1', '', 0, 2, 2),
  'DELETE /api/v1/account/logout':                 row('DeleteItem ×1, GetItem ×1', '', 0, 2, 2),
  'GET /api/v1/swap/tokens':                       row('Query ×1', '', 0, 1, 1),
  'POST /api/v1/networks/wallet':                  row('GetItem ×1, TransactWriteItems ×1', '', 0, 2, 2),
  // One balance per attached network (each of the stack's), read in parallel.
  'GET /api/v1/networks/wallet/balance':           row('GetItem ×1, Query ×1, UpdateItem ×2', `eth_getBalance ×${NETWORK_NAMES.length}`, NETWORK_NAMES.length, 3, 4),
  // The router's allowance read, then the approval's block, nonce, tip and native balance in one
  // batch and its preview: a wallet that has approved nothing (the dearer answer).
  'GET /api/v1/swap/approval/{network}':           row('GetItem ×1, UpdateItem ×2', `eth_call ×1, ${PREPARE}, ${PREVIEW}`, 3, 3, 6),
  'GET /api/v1/watchlist/projects':                row('BatchGetItem ×1, GetItem ×1, Query ×1', '', 0, 2, 2),
  'POST /api/v1/watchlist/{projectId}':            row('GetItem ×1, TransactWriteItems ×1', '', 0, 2, 2),
  'DELETE /api/v1/watchlist/{projectId}':          row('GetItem ×1, TransactWriteItems ×1', '', 0, 2, 2),
  'GET /api/v1/project/{projectId}':               row('GetItem ×2', '', 0, 1, 1),
  'GET /api/v1/price/history/daily/{projectId}':   row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/price/history/monthly/{projectId}': row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/price/history/yearly/{projectId}':  row('Query ×1', '', 0, 1, 1),
  'GET /api/v1/trades':                            row('GetItem ×1, Query ×1', '', 0, 1, 1),
  'GET /api/v1/trade/hash/{hash}':                 row('GetItem ×1, Query ×1, UpdateItem ×2', 'eth_getTransactionReceipt ×1', 1, 3, 4),
  'GET /api/v1/trade/id/{tradeId}':                row('GetItem ×2, UpdateItem ×2', 'eth_getTransactionReceipt ×1', 1, 3, 4),
  // A ticket for the WebSocket API: the session, then the ticket's item (DECISIONS §10.3).
  'POST /api/v1/ws/ticket':                        row('GetItem ×1, PutItem ×1', '', 0, 2, 2),
  ...networkRows,
}

const measured = new Map<string, RequestTally & { status: number; read: boolean }>()
/** Routes whose handler takes a token (their definition's `auth`). */
const authenticated = new Set<string>()
/**
 * Each route's token kind, per-client budget and RPC charge (its definition's `auth`,
 * `clientLimit` and `rpcBudget`: the worst case it is charged, and whether only when it calls).
 */
const definitions = new Map<
  string,
  {
    token: string
    budget?: { name: string; weight: number }
    rpc?: { cap: number; atFirstCall: boolean }
  }
>()

beforeAll(async () => {
  for (const fn of declaredFunctions()) {
    if (!fn.route) continue
    const handler = (await declaredHandler(fn)) as {
      route?: {
        auth: 'none' | { audience: string }
        clientLimit?: { budget: { name: string; weight: number } }
        rpcBudget?: { cap: () => number; atFirstCall: boolean }
      }
    }
    const routeKey = `${fn.route.method} ${fn.route.path}`
    // The docs routes answer from memory and are not defineHandler routes.
    if (!handler.route) continue
    if (handler.route.auth !== 'none') authenticated.add(routeKey)
    definitions.set(routeKey, {
      token: handler.route.auth === 'none' ? 'none' : handler.route.auth.audience,
      budget: handler.route.clientLimit?.budget,
      ...(handler.route.rpcBudget && {
        rpc: {
          cap: handler.route.rpcBudget.cap(),
          atFirstCall: handler.route.rpcBudget.atFirstCall,
        },
      }),
    })
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
  it("sends one valid request to each /api/v1 route of serverless.yml: 28 and each network's", () => {
    const declared = declaredFunctions()
      .flatMap((fn) => (fn.route ? [`${fn.route.method} ${fn.route.path}`] : []))
      .filter((route) => route.includes(' /api/v1/'))

    expect(declared).toHaveLength(28 + networkRoutes.length)
    expect([...measured.keys()].sort()).toEqual(declared.sort())
    for (const [route, tally] of measured)
      expect({ route, status: tally.status }).toEqual({ route, status: 200 })
  })

  it('costs exactly the DynamoDB commands, RPC calls and round trips of the table', () => {
    const costs = Object.fromEntries([...measured.keys()].map((route) => [route, actual(route)]))

    expect(costs).toEqual(EXPECTED)
  })
})

describe('the cost table of docs/security.md', () => {
  const rows = (): CostRow[] =>
    [...measured.keys()]
      .filter((route) => !addedNetworkRoutes.has(route))
      .map((route) => {
        const tally = measured.get(route)
        const definition = definitions.get(route)
        const budget = definition?.budget
        const rpc = definition?.rpc
        return {
          route,
          token: definition?.token ?? '?',
          budget: budget ? `${budget.name} (${budget.weight})` : rpc ? 'rpc' : '',
          rpcCharged: rpc ? `${rpc.cap}${rpc.atFirstCall ? ' if it calls' : ''}` : '',
          dynamoCalls: tally?.dynamo.calls ?? 0,
          dynamoCommands: formatCounts(tally?.dynamo.byCommand ?? {}),
          rpcCalls: tally?.rpc.calls ?? 0,
          rpcRoundTrips: tally?.rpc.roundTrips ?? 0,
        }
      })

  it('states the DynamoDB and RPC calls every route was measured to make (UPDATE_COST_TABLE=1 rewrites it)', () => {
    if (process.env.UPDATE_COST_TABLE === '1') writeCostTable(rows())

    expect(tableCells(documentedCostTable())).toEqual(tableCells(renderCostTable(rows())))
  })

  it("charges every route that makes RPC calls its client's RPC budget, at a worst case at least the calls it made and within the budget (DECISIONS §10.4)", () => {
    const limit = loadClientLimitConfig().rpc
    const calling = [...measured].filter(([, tally]) => tally.rpc.calls > 0)
    const charges = calling.map(([route, tally]) => {
      const rpc = definitions.get(route)?.rpc
      return {
        route,
        charged: rpc !== undefined,
        covers: (rpc?.cap ?? 0) >= tally.rpc.calls,
        withinBudget: (rpc?.cap ?? Infinity) <= limit,
      }
    })

    // Each network's quote, swaps, transfer, prepares and submit, the balances, the approval, the
    // trade lookups.
    expect(calling.length).toBe(networkRoutes.length + 4)
    expect(charges).toEqual(
      calling.map(([route]) => ({ route, charged: true, covers: true, withinBudget: true })),
    )
    // A route that calls no node is charged nothing (the wallet login charges a contract wallet's
    // check itself, lib/auth/walletSignIn.ts).
    const uncharged = [...measured]
      .filter(([, tally]) => tally.rpc.calls === 0)
      .filter(([route]) => definitions.get(route)?.rpc !== undefined)
    expect(uncharged).toEqual([])
  })
})

describe('the per-request goals of issue 7', () => {
  // The table's reads and writes of the route's own work: the RPC budget's charge and refund
  // (DECISIONS §10.4, two UpdateItems) are the metering, counted in the cost table.
  const dynamoCalls = (route: string) => {
    const calls = measured.get(route)?.dynamo.calls
    return calls === undefined ? undefined : calls - (definitions.get(route)?.rpc ? 2 : 0)
  }
  const calls = (routes: string[]) =>
    Object.fromEntries(routes.map((route) => [route, dynamoCalls(route)]))

  it('reads the table at most twice on every read route, the watchlist three times', () => {
    const reads = [...measured].filter(([, tally]) => tally.read).map(([route]) => route)
    const over = Object.fromEntries(
      Object.entries(calls(reads)).filter(([, count]) => (count ?? 0) > 2),
    )

    expect(reads).toHaveLength(16 + networkReads.length)
    // The watchlist: the watch items (a Query) beside the caller's session (a GetItem), then the
    // projects' live metrics (a BatchGetItem per 100 keys): two round trips.
    expect(over).toEqual({ 'GET /api/v1/watchlist/projects': 3 })
  })

  it('reads price history in one call, and project details in one beside the session', () => {
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
      'GET /api/v1/project/{projectId}': 2,
    })
    // Project details takes an account token: the session's GetItem and the project's (with its
    // metrics) at once (sessionRead: 'beside'), one round trip.
    expect(measured.get('GET /api/v1/project/{projectId}')?.steps.dynamo).toBe(1)
  })

  it('refreshes with two DynamoDB calls (the session, then the conditional rotation), and logs in with at most five and no RPC call', () => {
    // A login adds to the issue-7 budget of three the per-IP count and the attempt reservation
    // (DECISIONS §7.1), each one conditional UpdateItem; the account's also gives its attempt back.
    expect(calls(['GET /api/v1/auth/refresh', 'GET /api/v1/account/refresh'])).toEqual({
      'GET /api/v1/auth/refresh': 2,
      'GET /api/v1/account/refresh': 2,
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
    // that state; then the chosen split's router call is simulated (with the fee-safe plans
    // beside it while an end token has not been seen plain). Warm: the input token's balance slot is known from the
    // warm-up request (a cold quote finds it beside the pools: tests/functions/swap/tokenZoo.test.ts).
    for (const route of networkRoutes.filter((key) => key.includes('/swap/quote/'))) {
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
    // A route on the RPC budget adds its charge (before the core, or a trade lookup's at its
    // call, after its read) and its refund at the end: two steps.
    const metering = (route: string) => (definitions.get(route)?.rpc ? 2 : 0)

    // Trades, the two trade lookups, balances, the approval, project details, the watchlist, each
    // network's prepares.
    expect(reads).toHaveLength(
      7 + networkReads.filter((route) => route.includes('/prepare/')).length,
    )
    // The session is read beside the route's own request (sessionRead 'beside'). The
    // watchlist's own data is two requests one after the other: its watches (a Query), then
    // their projects (a BatchGetItem).
    expect(steps).toEqual(
      Object.fromEntries(
        reads.map((route) => [
          route,
          (route === 'GET /api/v1/watchlist/projects' ? 2 : 1) + metering(route),
        ]),
      ),
    )
  })

  it('submits in 2 RPC round trips, transfers in 3, swaps in 4 (the preview a round trip of its own), with the allowance given, the claim after the session', () => {
    const sending = [...measured.keys()].filter((route) =>
      /\/(swap|transfer)\/.*\{key\}|\/submit\//.test(route),
    )
    // A transfer: the session check and the chain reads with the gas estimate at once, the
    // Idempotency-Key's claim (a write) once the session is admitted; the broadcast; one
    // transaction recording the trade and completing the key. A swap and a submit read their
    // session first (sessionRead 'guard'), then claim beside their chain reads: a swap's pools,
    // then the route simulated beside its estimate; a submit's wait for the catalog, no chain
    // call before its targets are known (DECISIONS §8.2, issue 22).
    expect([...sending].sort()).toEqual(
      networkRoutes.filter((route) => /\/(swap|transfer)\/.*\{key\}|\/submit\//.test(route)).sort(),
    )
    for (const route of sending) {
      const swap = route.includes('/swap/')
      // The RPC budget's charge comes before the core (a transfer's beside its session read, a
      // swap's and a submit's after it, read first); its refund is a step at the end.
      const transfer = route.includes('/transfer/')
      expect({ route, ...stepsOf(route) }).toEqual({
        route,
        roundTrips: swap ? 4 : transfer ? 3 : 2,
        dynamoSteps: transfer ? 4 : 5,
        steps: transfer ? 6 : swap ? 8 : 7,
      })
    }
  })

  it("writes the watchlist and a wallet's networks in one transaction, after the session's read", () => {
    for (const route of [
      'POST /api/v1/watchlist/{projectId}',
      'DELETE /api/v1/watchlist/{projectId}',
      'POST /api/v1/networks/wallet',
    ]) {
      expect({ route, calls: measured.get(route)?.dynamo.byCommand }).toEqual({
        route,
        calls: { GetItem: 1, TransactWriteItems: 1 },
      })
    }
  })
})
