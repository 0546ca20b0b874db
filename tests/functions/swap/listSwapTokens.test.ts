import { NETWORK_NAMES } from '../../../lib/networkNames'
import '../../support/env'
import { describe, expect, it } from 'vitest'
import { handler as listTokens } from '../../../functions/swap/listSwapTokens'
import { listProjects } from '../../../lib/db/project'
import { deployment } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'

interface Token {
  id: string
  name: string
  address: string
  symbol: string
  decimals: number
  network: string
}

function list(query?: Record<string, string>) {
  return invoke(listTokens, httpEvent({ route: 'listSwapTokens', queryStringParameters: query }))
}

async function tokensOf(query?: Record<string, string>): Promise<Token[]> {
  const response = await list(query)
  expect(response.status).toBe(200)
  return (response.body.result as { tokens: Token[] }).tokens
}

// Other test files may add projects to the catalog while this runs, so orders are checked as
// orders, and the paging check sorts by creation time, where new projects only append.
function isSorted(values: Array<string | number>, direction: 'ASC' | 'DESC') {
  return values.every((value, index) => {
    const previous = values[index - 1]
    if (previous === undefined) return true
    return direction === 'ASC' ? previous <= value : previous >= value
  })
}

describe('GET /v1/swap/tokens', () => {
  it('lists up to ten catalog tokens by network, descending, by default', async () => {
    const tokens = await tokensOf()
    const total = (await listProjects()).length

    expect(tokens).toHaveLength(Math.min(10, total))
    expect(
      isSorted(
        tokens.map((token) => token.network),
        'DESC',
      ),
    ).toBe(true)
    expect(tokens[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: expect.any(String),
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      symbol: expect.any(String),
      decimals: expect.any(Number),
      network: 'ethereum',
    })
  })

  it('holds every token the devnets deployed, with checksummed addresses', async () => {
    const tokens = await tokensOf({ limit: '100' })

    for (const network of NETWORK_NAMES) {
      const dex = deployment(network)
      for (const address of [dex.usdStablecoin, ...dex.tokens.map((token) => token.address)]) {
        expect(tokens).toContainEqual(expect.objectContaining({ network, address }))
      }
    }
  })

  it.each(['network', 'name', 'symbol', 'decimals', 'createdAt'] as const)(
    'sorts by %s in both directions, the direction in any case',
    async (sort) => {
      const projects = new Map((await listProjects()).map((project) => [project.id, project]))

      for (const direction of ['asc', 'DESC', 'Desc'] as const) {
        const tokens = await tokensOf({ sort, direction, limit: '100' })
        const values = tokens.map(
          (token) => projects.get(token.id)?.[sort] ?? token[sort as 'name'],
        )

        expect(tokens.length).toBeGreaterThanOrEqual(8)
        expect(isSorted(values, direction.toUpperCase() as 'ASC' | 'DESC')).toBe(true)
      }
    },
  )

  it('pages with limit and offset without gaps or overlaps', async () => {
    const all = await tokensOf({ sort: 'createdAt', direction: 'ASC', limit: '9' })
    const pages = [
      await tokensOf({ sort: 'createdAt', direction: 'ASC', limit: '4' }),
      await tokensOf({ sort: 'createdAt', direction: 'ASC', limit: '4', offset: '4' }),
      await tokensOf({ sort: 'createdAt', direction: 'ASC', limit: '1', offset: '8' }),
    ]

    expect(pages.flat()).toEqual(all)
    expect(await tokensOf({ offset: '100000' })).toEqual([])
  })

  it.each([
    ['an unknown sort', { sort: 'price' }, 'query.sort'],
    ['an unknown direction', { direction: 'UP' }, 'query.direction'],
    ['limit 0', { limit: '0' }, 'query.limit'],
    ['limit 101', { limit: '101' }, 'query.limit'],
    ['a fractional limit', { limit: '1.5' }, 'query.limit'],
    ['an exponent', { limit: '1e1' }, 'query.limit'],
    ['a negative offset', { offset: '-1' }, 'query.offset'],
    ['a word for an offset', { offset: 'ten' }, 'query.offset'],
  ])('answers 400 for %s', async (_, query, path) => {
    const response = await list(query)

    expect(response).toEqual({
      status: 400,
      body: {
        ok: false,
        error: {
          code: 400,
          message: 'the request is not valid',
          details: [{ path, message: expect.any(String) }],
        },
      },
    })
  })
})
