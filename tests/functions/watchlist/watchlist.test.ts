import '../../support/env'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { handler as getProjectDetails } from '../../../functions/project/getProjectDetails'
import { handler as addToWatchlist } from '../../../functions/watchlist/addToWatchlist'
import { handler as listWatchlist } from '../../../functions/watchlist/listWatchlist'
import { handler as removeFromWatchlist } from '../../../functions/watchlist/removeFromWatchlist'
import { getProjectMarket } from '../../../lib/db/marketStats'
import { putPriceBuckets } from '../../../lib/db/priceBucket'
import { bucketExpiry, referenceBuckets } from '../../../lib/markets/priceGrains'
import { recordPrice } from '../../../lib/markets/recordPrice'
import { httpEvent, invoke } from '../../support/httpEvent'
import { endSessionOf } from '../../support/liveSession'
import { accountSession, bearer, createProject } from '../../support/marketFixtures'
import { signInWithWallet } from '../../support/walletSignIn'

const usd = (value: number) => BigInt(Math.round(value * 1e6)) * 10n ** 12n
const DAY = 24 * 3_600_000

function add(token: string, projectId: string) {
  return invoke(
    addToWatchlist,
    httpEvent({
      route: 'addToWatchlist',
      pathParameters: { projectId },
      headers: bearer(token),
    }),
  )
}

function remove(token: string, projectId: string) {
  return invoke(
    removeFromWatchlist,
    httpEvent({
      route: 'removeFromWatchlist',
      pathParameters: { projectId },
      headers: bearer(token),
    }),
  )
}

function list(token: string) {
  return invoke(listWatchlist, httpEvent({ route: 'listWatchlist', headers: bearer(token) }))
}

async function watchCount(projectId: string) {
  return (await getProjectMarket(projectId))?.market.watchLists
}

/** A project whose price moved from `before` (its average of the hour 24 h ago) to `after` (now). */
async function pricedProject(before: number, after: number) {
  const project = await createProject()
  const now = new Date()
  const { grain, start } = referenceBuckets(now)['24h']
  await putPriceBuckets(project.id, [
    {
      grain,
      start,
      averageE18: usd(before),
      coveredTo: new Date(start.getTime() + DAY / 24),
      pathId: 'test',
      expiresAt: bucketExpiry(grain, start),
    },
  ])
  await recordPrice(project.id, { at: now, priceE18: usd(after) })
  return project
}

const OK_EMPTY = { status: 200, body: { ok: true, result: {} } }

describe('watchlist', () => {
  it('keeps the count exact when 10 wallets add the same project at once', async () => {
    const project = await createProject()
    const wallets = await Promise.all(Array.from({ length: 10 }, () => signInWithWallet()))

    const responses = await Promise.all(wallets.map(({ access }) => add(access, project.id)))

    expect(responses).toEqual(Array.from({ length: 10 }, () => OK_EMPTY))
    expect(await watchCount(project.id)).toBe(10)
  })

  it('treats adding twice as harmless, also when both adds race', async () => {
    const project = await createProject()
    const { access } = await signInWithWallet()

    const first = await Promise.all([add(access, project.id), add(access, project.id)])
    const again = await add(access, project.id)

    expect([...first, again]).toEqual([OK_EMPTY, OK_EMPTY, OK_EMPTY])
    expect(await watchCount(project.id)).toBe(1)
    expect((await list(access)).body.result).toMatchObject({ watchlist: [{ id: project.id }] })
  })

  it('removes a project and lowers the count; removing again is harmless', async () => {
    const project = await createProject()
    const owner = await signInWithWallet()
    const other = await signInWithWallet()
    await add(owner.access, project.id)
    await add(other.access, project.id)

    const removed = await remove(owner.access, project.id)
    const removedAgain = await remove(owner.access, project.id)

    expect([removed, removedAgain]).toEqual([OK_EMPTY, OK_EMPTY])
    expect(await watchCount(project.id)).toBe(1)
    expect(await list(owner.access)).toEqual({
      status: 200,
      body: { ok: true, result: { watchlist: [] } },
    })
  })

  it('lists the watched projects in the order added, with price and daily change', async () => {
    const falling = await pricedProject(2, 1.5)
    const rising = await pricedProject(4, 5)
    const unpriced = await createProject()
    const { access } = await signInWithWallet()
    for (const project of [falling, rising, unpriced]) await add(access, project.id)

    const response = await list(access)

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          watchlist: [
            {
              id: falling.id,
              symbol: falling.symbol,
              name: falling.name,
              price: 1.5,
              price_change_daily: -25,
              price_change_daily_positive: false,
            },
            {
              id: rising.id,
              symbol: rising.symbol,
              name: rising.name,
              price: 5,
              price_change_daily: 25,
              price_change_daily_positive: true,
            },
            {
              id: unpriced.id,
              symbol: unpriced.symbol,
              name: unpriced.name,
              price: 0,
              price_change_daily: 0,
              price_change_daily_positive: false,
            },
          ],
        },
      },
    })
  })

  it('shows the count on the project details', async () => {
    const project = await createProject()
    const { access } = await signInWithWallet()
    await add(access, project.id)
    const account = await accountSession()

    const response = await invoke(
      getProjectDetails,
      httpEvent({
        route: 'getProjectDetails',
        pathParameters: { projectId: project.id },
        headers: bearer(account.access),
      }),
    )

    expect(response.body.result).toMatchObject({ project: { id: project.id, watchLists: 1 } })
  })

  it('answers 404 for an unknown project, on add and on remove', async () => {
    const { access } = await signInWithWallet()
    const projectId = randomUUID()

    const added = await add(access, projectId)
    const removed = await remove(access, projectId)

    const notFound = {
      status: 404,
      body: { ok: false, error: { code: 404, message: 'no project with this id' } },
    }
    expect([added, removed]).toEqual([notFound, notFound])
    expect((await list(access)).body.result).toEqual({ watchlist: [] })
  })

  it('answers 401003 to an ended session and changes nothing, the project known or not', async () => {
    const project = await createProject()
    const watched = await createProject()
    const wallet = await signInWithWallet()
    await add(wallet.access, watched.id)
    await endSessionOf(wallet.access)

    const responses = [
      await add(wallet.access, project.id),
      await remove(wallet.access, watched.id),
      await add(wallet.access, randomUUID()),
      await remove(wallet.access, randomUUID()),
    ]

    // The guard reads the session before the route runs, so nothing of it is written.
    for (const response of responses) {
      expect(response).toEqual({
        status: 401,
        body: { ok: false, error: { code: 401003, message: expect.any(String) } },
      })
    }
    expect([await watchCount(project.id), await watchCount(watched.id)]).toEqual([0, 1])
  })

  it('answers 400 for a project id that is not a UUID', async () => {
    const { access } = await signInWithWallet()

    const response = await add(access, 'nope')

    expect(response.status).toBe(400)
    expect(response.body.error?.details).toEqual([
      { path: 'params.projectId', message: expect.any(String) },
    ])
  })
})
