import '../../support/env'
import { getAddress, parseUnits, zeroAddress } from 'viem'
import { describe, expect, inject, it } from 'vitest'
import { untrustedCallGas, withCallBudget } from '../../../lib/chain/callBudget'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { loadUntrustedCallConfig } from '../../../lib/config'
import { CallBudgetSpent } from '../../../lib/errors'
import { bestRoute } from '../../../lib/routing/quote/bestRoute'

// The engine's lens and probe calls name pools and tokens a caller chose (DECISIONS §8.2): each
// carries the configured gas cap and takes one call from the request's budget, like every other
// call into caller-chosen code (callBudget.ts is the one home of the cap).

/** The `gas` of every eth_call sent while `run` runs. */
async function ethCallGas<Result>(run: () => Promise<Result>) {
  const gas: Array<bigint | undefined> = []
  const onRequest = (text: unknown) => {
    if (typeof text !== 'string') return
    for (const { method, params = [] } of [JSON.parse(text) as unknown].flat() as Array<{
      method?: string
      params?: Array<{ gas?: string }>
    }>) {
      if (method === 'eth_call')
        gas.push(params[0]?.gas === undefined ? undefined : BigInt(params[0].gas))
    }
  }
  rpcRequestChannel.subscribe(onRequest)
  try {
    return { result: await run(), gas }
  } finally {
    rpcRequestChannel.unsubscribe(onRequest)
  }
}

/** Calls left in the current budget, found by spending them. */
function drain(): number {
  let left = 0
  for (;;) {
    try {
      untrustedCallGas()
      left += 1
    } catch (error) {
      if (error instanceof CallBudgetSpent) return left
      throw error
    }
  }
}

describe('bestRoute and the call budget', () => {
  const deployed = inject('deployments').ethereum
  const parameters = {
    network: 'ethereum' as const,
    tokenIn: getAddress(deployed.wrappedNative),
    tokenOut: getAddress(deployed.usdStablecoin),
    amountIn: parseUnits('1', 18),
    nativeIn: false,
    nativeOut: false,
    recipient: zeroAddress,
  }

  it('caps every lens and probe call at UNTRUSTED_CALL_GAS and counts each in the budget', async () => {
    await bestRoute(parameters) // warm: the balance slot is known
    const { gasPerCall, callsPerRequest } = loadUntrustedCallConfig()
    const { result, gas } = await ethCallGas(() =>
      withCallBudget(async () => {
        await bestRoute(parameters)
        return drain()
      }),
    )
    expect(gas.length).toBeGreaterThanOrEqual(2) // at least one lens call and the probe
    for (const each of gas) expect(each).toBe(gasPerCall)
    expect(callsPerRequest - result).toBe(gas.length)
  })

  it('refuses the quote (422) before any call leaves once the budget is spent', async () => {
    const { result, gas } = await ethCallGas(() =>
      withCallBudget(async () => {
        drain()
        return bestRoute(parameters).catch((error: unknown) => error)
      }),
    )
    expect(result).toBeInstanceOf(CallBudgetSpent)
    expect(gas).toEqual([])
  })
})
