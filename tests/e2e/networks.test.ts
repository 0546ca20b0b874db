import { describe, expect, inject, it } from 'vitest'
import { NETWORK_NAMES } from '../../lib/networkNames'
import { listNetworksResultSchema } from '../../schemas/networks'

describe('the local stack over HTTP (serverless offline)', () => {
  it('serves GET /api/v1/networks from DynamoDB', async () => {
    const response = await fetch(`${inject('apiUrl')}/api/v1/networks`)

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const body = (await response.json()) as { ok: boolean; result: unknown }
    expect(body.ok).toBe(true)
    const { networks } = listNetworksResultSchema.parse(body.result)
    // Every network the stack serves: the suite's serves the whole table.
    expect(networks.map(({ network }) => network).sort()).toEqual([...NETWORK_NAMES].sort())
  })
})
