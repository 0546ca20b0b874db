import '../../support/env'
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { handler as logout } from '../../../functions/account/logoutAccount'
import { handler } from '../../../functions/project/getProjectDetails'
import { recordPrice } from '../../../lib/markets/recordPrice'
import { formatTimestamp } from '../../../lib/formatTimestamp'
import { projectSchema } from '../../../schemas/project'
import * as z from '../../../schemas/zod'
import { httpEvent, invoke } from '../../support/httpEvent'
import { accountSession, bearer, catalogEntry, createProject } from '../../support/marketFixtures'
import { spyOnDbSend } from '../../support/dbSendSpy'

function details(token: string, projectId: string) {
  return invoke(
    handler,
    httpEvent({
      route: 'getProjectDetails',
      pathParameters: { projectId },
      headers: bearer(token),
    }),
  )
}

describe('project details', () => {
  let token: string
  beforeAll(async () => {
    token = (await accountSession()).access
  })

  it('answers the address checksummed though the catalog wrote it in lower case', async () => {
    const checksummed = catalogEntry().address
    const project = await createProject({ address: checksummed.toLowerCase() })

    const response = await details(token, project.id)

    expect(response.status).toBe(200)
    expect((response.body.result as { project: { address: string } }).project.address).toBe(
      checksummed,
    )
  })

  it('answers every field of the interface, metrics not known yet being 0', async () => {
    const project = await createProject({
      symbol: 'FRESH',
      decimals: 8,
      circulatingSupply: '1234.5',
      social: { website: 'https://example.org/fresh', github: 'https://example.org/fresh/src' },
      tags: ['alpha'],
      categories: ['Beta'],
    })

    const response = await details(token, project.id)

    expect(response.status).toBe(200)
    const body = response.body.result as { project: unknown }
    expect(Object.keys(z.strictObject(projectSchema.shape).parse(body.project)).length).toBe(30)
    expect(body.project).toEqual({
      id: project.id,
      name: project.name,
      address: project.address,
      symbol: 'FRESH',
      industry: 'Testing',
      decimals: 8,
      network: 'ethereum',
      description: 'A project made by a test.',
      contract_inception: '1970-01-01 00:00:00.000000 +00:00',
      contract_age: 0,
      market_rank: 0,
      price: 0,
      market_cap: 0,
      fully_diluted_market_cap: 0,
      total_supply: 0,
      total_supply_exact: '0',
      circulating_supply: 1234.5,
      circulating_supply_exact: '1234.5',
      volume_24h: 0,
      market_pairs: 0,
      price_change_24h: 0,
      price_change_7d: 0,
      price_change_30d: 0,
      price_change_60d: 0,
      price_change_90d: 0,
      createdAt: formatTimestamp(new Date(project.createdAt)),
      watchLists: 0,
      social: {
        id: expect.any(String),
        website: 'https://example.org/fresh',
        explorer: '',
        twitter: '',
        facebook: '',
        instagram: '',
        telegram: '',
        discord: '',
        reddit: '',
        youtube: '',
        github: 'https://example.org/fresh/src',
        medium: '',
      },
      tags: [{ id: expect.any(String), tag: 'alpha' }],
      categories: [{ id: expect.any(String), category: 'Beta' }],
    })
  })

  it('values the market cap at the sampled price and its circulating supply', async () => {
    const project = await createProject({ circulatingSupply: '1000' })
    await recordPrice(project.id, { at: new Date(), priceE18: 2_500_000_000_000_000_000n })

    const response = await details(token, project.id)

    expect(response.body.result).toMatchObject({
      project: { price: 2.5, market_cap: 2500, circulating_supply: 1000 },
    })
  })

  it("reads the project's item and the caller's session, one GetItem each", async () => {
    const project = await createProject()
    const send = spyOnDbSend()

    const response = await details(token, project.id)

    // At once (sessionRead 'beside'): one round trip, tests/functions/requestCosts.test.ts.
    const reads = send.mock.calls.map(([command]) => {
      const { Key } = command.input as { Key?: { sk: string } }
      return `${command.constructor.name} ${(Key?.sk ?? '').split('#')[0]}`
    })
    expect(reads.sort()).toEqual(['GetCommand PROJECT', 'GetCommand SESSION'])
    expect(response.status).toBe(200)
    expect((response.body.result as { project: { id: string } }).project.id).toBe(project.id)
  })

  it('answers 401003 once the session has ended, for a known project and an unknown one', async () => {
    const project = await createProject()
    const ended = (await accountSession()).access
    const loggedOut = await invoke(
      logout,
      httpEvent({ route: 'logoutAccount', headers: bearer(ended) }),
    )

    const known = await details(ended, project.id)
    const unknown = await details(ended, randomUUID())

    expect(loggedOut.status).toBe(200)
    for (const response of [known, unknown]) {
      expect(response).toMatchObject({ status: 401, body: { ok: false, error: { code: 401003 } } })
    }
  })

  it('answers 404 for an unknown project and 400 for a malformed id', async () => {
    const unknown = await details(token, randomUUID())
    const malformed = await details(token, '1234')

    expect(unknown).toEqual({
      status: 404,
      body: { ok: false, error: { code: 404, message: 'no project with this id' } },
    })
    expect(malformed.status).toBe(400)
  })
})
