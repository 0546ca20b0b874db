import '../../support/env'
import { describe, expect, it } from 'vitest'
import { functionName } from '../../../lib/networks/operations'
import { deployment } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { networkHandler } from '../../support/networkRoutes'

// The quote's `type` (DECISIONS §10.1): a value it does not know, or a parameter it does not
// know, is a 400 naming it, never an answer to another question; an exact-output amount is
// written in token1's decimals; more than the pools can pay is a 422 that says so.

async function quote(query: Record<string, string>) {
  return invoke(
    await networkHandler('quote', 'ethereum'),
    httpEvent({ route: functionName('quote', 'ethereum'), queryStringParameters: query }),
  )
}

const sides = () => {
  const dex = deployment('ethereum')
  return {
    address0: dex.usdStablecoin,
    decimals0: '6',
    address1: dex.token('LINK'),
    decimals1: '18',
  }
}

describe('GET /v1/swap/quote/{network}?type=', () => {
  it('answers 400 naming `type` for a type it does not know', async () => {
    const response = await quote({ ...sides(), amount: '1', type: 'exactOutput' })
    expect(response.status).toBe(400)
    expect(JSON.stringify(response.body)).toContain('type')
  })

  it('answers 400 naming an unknown parameter rather than quoting without it', async () => {
    const response = await quote({ ...sides(), amount: '1', tradeType: 'EXACT_OUTPUT' })
    expect(response.status).toBe(400)
    expect(JSON.stringify(response.body)).toContain('tradeType')
  })

  it("reads an exact-output amount in token1's decimals: 18 fraction digits pass, 19 are a 400", async () => {
    const ok = await quote({ ...sides(), amount: '1.000000000000000001', type: 'exactOut' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const tooFine = await quote({ ...sides(), amount: '1.0000000000000000001', type: 'exactOut' })
    expect(tooFine.status).toBe(400)
    expect(JSON.stringify(tooFine.body)).toContain('decimals1')
  })

  it('answers 422 with a clear message for more than the pools can pay', async () => {
    const response = await quote({ ...sides(), amount: '1000000000000', type: 'exactOut' })
    expect(response.status).toBe(422)
    expect(JSON.stringify(response.body)).toMatch(/cannot deliver/)
  })
})
