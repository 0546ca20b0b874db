import '../support/env'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ChainCaller,
  fundedCaller,
  quoteNativeFor,
  transferNative,
} from '../support/chainRoutes'
import { captureLogs } from '../support/captureLogs'
import { type ProviderFault, type RpcProxy, startRpcProxy } from '../support/faultEngines'

// A provider that refuses or breaks, between the handlers and the shared ethereum devnet: every
// failure of the node is 502 (DECISIONS §7.2), and the RPC URL, which carries the provider's key
// in its path as hosted providers do, never reaches a log line or a response body, nor does a
// stack trace.

const PROVIDER_KEY = 'SECRETKEY123providerkey'
const STACK_FRAME = /\n\s+at [\w.<>]+ \(|\bat .+\.ts:\d+:\d+/
const logs = captureLogs('DEBUG')

let proxy: RpcProxy
let caller: ChainCaller

beforeAll(async () => {
  proxy = await startRpcProxy(String(process.env.ETHEREUM_RPC_URL))
  // Before any handler reads its configuration: clients are built on first use.
  process.env.ETHEREUM_RPC_URL = `${proxy.url}/v3/${PROVIDER_KEY}`
  caller = await fundedCaller()
}, 60_000)

afterAll(async () => {
  await proxy?.close()
})

const routes = {
  quote: () => quoteNativeFor('0x000000000000000000000000000000000000dEaD'),
  transfer: () => transferNative(caller),
}

const FAULTS: ProviderFault[] = [
  'http-429',
  'http-500',
  'rpc-rate-limit',
  'rpc-internal',
  'garbage',
  'silence',
]

describe.each(FAULTS)('a provider answering %s', (fault) => {
  it.each(Object.keys(routes) as Array<keyof typeof routes>)(
    'makes the %s route answer 502, with no URL or stack in the body or the logs',
    async (route) => {
      proxy.misbehave(fault)
      try {
        const response = await routes[route]()

        expect(response).toEqual({
          status: 502,
          body: { ok: false, error: { code: 502, message: expect.any(String) } },
        })
        const written = `${JSON.stringify(response.body)}\n${logs.text()}`
        expect(written).not.toContain(PROVIDER_KEY)
        expect(written).not.toContain(proxy.url.replace('http://', ''))
        expect(written).not.toMatch(STACK_FRAME)
      } finally {
        proxy.misbehave(undefined)
      }
    },
  )
})
