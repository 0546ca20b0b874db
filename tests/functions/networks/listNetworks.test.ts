import '../../support/env'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { handler } from '../../../functions/networks/listNetworks'
import { db } from '../../../lib/db/client'
import { networkId } from '../../../lib/db/network'
import { NETWORK_NAMES } from '../../../lib/networkNames'
import { httpEvent, invoke } from '../../support/httpEvent'

describe('GET /v1/networks', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('answers every seeded network with its stable id in the envelope', async () => {
    const response = await invoke(handler, httpEvent({ route: 'listNetworks' }))

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          // The suite's stack seeds every network of the table.
          networks: expect.arrayContaining(
            NETWORK_NAMES.map((network) => ({ id: networkId(network), network })),
          ),
        },
      },
    })
    const { networks } = response.body.result as { networks: unknown[] }
    expect(networks).toHaveLength(NETWORK_NAMES.length)
  })

  it('reads the table once per request', async () => {
    const send = vi.spyOn(db(), 'send')

    await invoke(handler, httpEvent({ route: 'listNetworks' }))

    expect(send).toHaveBeenCalledTimes(1)
  })
})
