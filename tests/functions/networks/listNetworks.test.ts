import '../../support/env'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { handler } from '../../../functions/networks/listNetworks'
import { db } from '../../../lib/db/client'
import { networkId } from '../../../lib/db/network'
import { httpEvent, invoke } from '../../support/httpEvent'

describe('GET /v1/networks', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('answers both networks with their stable ids in the envelope', async () => {
    const response = await invoke(handler, httpEvent({ route: 'listNetworks' }))

    expect(response).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          networks: expect.arrayContaining([
            { id: networkId('ethereum'), network: 'ethereum' },
            { id: networkId('altchain'), network: 'altchain' },
          ]),
        },
      },
    })
    const { networks } = response.body.result as { networks: unknown[] }
    expect(networks).toHaveLength(2)
  })

  it('reads the table once per request', async () => {
    const send = vi.spyOn(db(), 'send')

    await invoke(handler, httpEvent({ route: 'listNetworks' }))

    expect(send).toHaveBeenCalledTimes(1)
  })
})
