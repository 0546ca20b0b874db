import '../../support/env'
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { handler as attachWalletNetworks } from '../../../functions/networks/attachWalletNetworks'
import { handler as getWalletBalances } from '../../../functions/networks/getWalletBalances'
import { handler as getProjectDetails } from '../../../functions/project/getProjectDetails'
import { handler as addToWatchlist } from '../../../functions/watchlist/addToWatchlist'
import { handler as listWatchlist } from '../../../functions/watchlist/listWatchlist'
import { handler as removeFromWatchlist } from '../../../functions/watchlist/removeFromWatchlist'
import { UNAUTHORIZED } from '../../../lib/errors'
import { httpEvent, invoke } from '../../support/httpEvent'
import { accountSession, bearer } from '../../support/marketFixtures'
import { signInWithWallet } from '../../support/walletSignIn'

const projectId = randomUUID()

const walletRoutes = [
  {
    name: 'attach networks',
    handler: attachWalletNetworks,
    routeKey: 'POST /api/v1/networks/wallet',
    body: { networkIds: [] },
  },
  { name: 'balances', handler: getWalletBalances, routeKey: 'GET /api/v1/networks/wallet/balance' },
  { name: 'list watchlist', handler: listWatchlist, routeKey: 'GET /api/v1/watchlist/projects' },
  {
    name: 'watch',
    handler: addToWatchlist,
    routeKey: 'POST /api/v1/watchlist/{projectId}',
    pathParameters: { projectId },
  },
  {
    name: 'unwatch',
    handler: removeFromWatchlist,
    routeKey: 'DELETE /api/v1/watchlist/{projectId}',
    pathParameters: { projectId },
  },
]

function call(route: (typeof walletRoutes)[number], headers: Record<string, string> = {}) {
  return invoke(
    route.handler,
    httpEvent({
      routeKey: route.routeKey,
      pathParameters: route.pathParameters,
      body: route.body,
      headers,
    }),
  )
}

function projectDetails(headers: Record<string, string> = {}) {
  return invoke(
    getProjectDetails,
    httpEvent({
      route: 'getProjectDetails',
      pathParameters: { projectId },
      headers,
    }),
  )
}

const refused = (code: number) => ({
  status: 401,
  body: { ok: false, error: { code, message: expect.any(String) } },
})

describe('market routes and their tokens', () => {
  // One account for the file: registering hashes with scrypt, which is slow on purpose.
  let accountToken: string
  beforeAll(async () => {
    accountToken = (await accountSession()).access
  })

  it.each(walletRoutes)('$name refuses an account token with 401002', async (route) => {
    expect(await call(route, bearer(accountToken))).toEqual(refused(UNAUTHORIZED.invalidToken))
  })

  it.each(walletRoutes)('$name answers 401001 without a token', async (route) => {
    expect(await call(route)).toEqual(refused(UNAUTHORIZED.missingToken))
  })

  it('project details refuse a wallet token with 401002, and answer 401001 without one', async () => {
    const wallet = await signInWithWallet()

    expect(await projectDetails(bearer(wallet.access))).toEqual(refused(UNAUTHORIZED.invalidToken))
    expect(await projectDetails()).toEqual(refused(UNAUTHORIZED.missingToken))
  })
})
