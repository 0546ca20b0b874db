import '../support/env'
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb'
import { randomBytes, randomUUID } from 'node:crypto'
import { toHex } from 'viem'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { handler as listNetworks } from '../../functions/networks/listNetworks'
import { handler as getWalletBalances } from '../../functions/networks/getWalletBalances'
import { handler as getDailyPriceHistory } from '../../functions/price/getDailyPriceHistory'
import { handler as getProjectDetails } from '../../functions/project/getProjectDetails'
import { handler as listTokens } from '../../functions/swap/listSwapTokens'
import { handler as getTradeByHash } from '../../functions/trade/getTradeByHash'
import { handler as getTradeById } from '../../functions/trade/getTradeById'
import { handler as listTrades } from '../../functions/trades/listTrades'
import { handler as listWatchlist } from '../../functions/watchlist/listWatchlist'
import { db } from '../../lib/db/client'
import { writeTrades } from '../support/bulkTrades'
import { type EnvelopeResponse, httpEvent, invoke } from '../support/httpEvent'
import { accountSession, bearer, createProject } from '../support/marketFixtures'
import { signInWithWallet } from '../support/walletSignIn'

// Issue 22, "a timeout anywhere on a read path answers 503, never 500" (DECISIONS §1: 503 when
// the database is unavailable). The deep trade page's timeout answered 500 because only failures
// the SDK names one of a few ways were taken as the database's: DynamoDB Local's own failure
// (InternalFailure, what a query too heavy for it answers), a gateway's 504 page (the SDK cannot
// parse it: a SyntaxError carrying the status) or a 503 without a body (`Unknown`) were 500s.
// DynamoDB Local cannot be made to answer these on demand, so a stand-in throws them, shaped as
// the SDK throws them, where the SDK does (inside its retries), for every command of a request
// or only the route's own Query.

type Fault = () => Error

const FAULTS: Record<string, Fault> = {
  'the SDK’s request timeout': () =>
    Object.assign(new Error('a request has exceeded the configured requestTimeout'), {
      name: 'TimeoutError',
      code: 'ETIMEDOUT',
    }),
  'DynamoDB Local’s InternalFailure': () =>
    new DynamoDBServiceException({
      name: 'InternalFailure',
      $fault: 'server',
      $metadata: { httpStatusCode: 500 },
      message: 'The request processing has failed because of an unknown error',
    }),
  'a gateway timeout page': () =>
    Object.assign(new SyntaxError('Unexpected token \'G\', "Gateway Timeout" is not valid JSON'), {
      $metadata: { httpStatusCode: 504 },
    }),
  'a 503 without a body': () =>
    new DynamoDBServiceException({
      name: 'Unknown',
      $fault: 'server',
      $metadata: { httpStatusCode: 503 },
      message: 'UnknownError',
    }),
}

const STAND_IN = 'readTimeoutStandIn'

/** Every command named in `commands` (all when empty) fails with `fault`, each attempt. */
function failCommands(fault: Fault, commands: string[] = []) {
  db().middlewareStack.add(
    (next, context) => (args) => {
      const name = context.commandName?.replace(/Command$/, '') ?? ''
      if (commands.length > 0 && !commands.includes(name)) return next(args)
      return Promise.reject(fault())
    },
    { step: 'deserialize', name: STAND_IN },
  )
}

afterEach(() => {
  db().middlewareStack.remove(STAND_IN)
})

let walletAuth: Record<string, string>
let accountAuth: Record<string, string>
let projectId: string

beforeAll(async () => {
  const wallet = await signInWithWallet()
  walletAuth = bearer(wallet.access)
  accountAuth = bearer((await accountSession()).access)
  projectId = (await createProject()).id
  await writeTrades(wallet.address, 60)
})

const READS: Record<string, () => Promise<EnvelopeResponse>> = {
  'GET /v1/networks': () => invoke(listNetworks, httpEvent({ route: 'listNetworks' })),
  'GET /v1/swap/tokens': () => invoke(listTokens, httpEvent({ route: 'listSwapTokens' })),
  'GET /v1/price/history/daily/{projectId}': () =>
    invoke(
      getDailyPriceHistory,
      httpEvent({
        route: 'getDailyPriceHistory',
        pathParameters: { projectId },
      }),
    ),
  'GET /v1/project/{projectId}': () =>
    invoke(
      getProjectDetails,
      httpEvent({
        route: 'getProjectDetails',
        pathParameters: { projectId },
        headers: accountAuth,
      }),
    ),
  'GET /v1/trades': () =>
    invoke(listTrades, httpEvent({ route: 'listTrades', headers: walletAuth })),
  'GET /v1/trades?offset=50': () =>
    invoke(
      listTrades,
      httpEvent({
        route: 'listTrades',
        queryStringParameters: { offset: '50' },
        headers: walletAuth,
      }),
    ),
  'GET /v1/trade/id/{tradeId}': () =>
    invoke(
      getTradeById,
      httpEvent({
        route: 'getTradeById',
        pathParameters: { tradeId: randomUUID() },
        headers: walletAuth,
      }),
    ),
  'GET /v1/trade/hash/{hash}': () =>
    invoke(
      getTradeByHash,
      httpEvent({
        route: 'getTradeByHash',
        pathParameters: { hash: toHex(randomBytes(32)) },
        headers: walletAuth,
      }),
    ),
  'GET /v1/watchlist/projects': () =>
    invoke(listWatchlist, httpEvent({ route: 'listWatchlist', headers: walletAuth })),
  'GET /v1/networks/wallet/balance': () =>
    invoke(getWalletBalances, httpEvent({ route: 'getWalletBalances', headers: walletAuth })),
}

const UNAVAILABLE = {
  ok: false,
  error: { code: 503, message: 'the database is unavailable; try again shortly' },
}

describe('a read path whose database times out or fails', () => {
  it.each(Object.keys(FAULTS))('answers 503 on every read route on %s', async (faultName) => {
    const fault = FAULTS[faultName] as Fault
    failCommands(fault)
    const answers: Record<string, unknown> = {}
    for (const [route, read] of Object.entries(READS)) {
      const { status, body } = await read()
      answers[route] = { status, body }
    }

    expect(answers).toEqual(
      Object.fromEntries(
        Object.keys(READS).map((route) => [route, { status: 503, body: UNAVAILABLE }]),
      ),
    )
  })

  it.each(Object.keys(FAULTS))(
    'answers 503 on a deep trade page whose own Query fails on %s (the session read passed)',
    async (faultName) => {
      failCommands(FAULTS[faultName] as Fault, ['Query'])

      const { status, body } = await READS['GET /v1/trades?offset=50']!()

      expect({ status, body }).toEqual({ status: 503, body: UNAVAILABLE })
    },
  )
})
