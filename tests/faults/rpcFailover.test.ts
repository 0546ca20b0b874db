import '../support/env'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePort } from '../../lib/local/findFreePort'
import {
  type ChainCaller,
  fundedCaller,
  quoteNativeFor,
  transferNative,
} from '../support/chainRoutes'
import { deployment } from '../support/devnetAccounts'
import { type RpcProxy, startRpcProxy } from '../support/faultEngines'

// Three RPC URLs for ethereum (DECISIONS §7.2): a dead one (nothing listens), a frozen one (takes
// the request, never answers), then the real devnet. Every chain route answers, and the broken
// providers are tried once per container, not once per request.

let frozen: RpcProxy
let caller: ChainCaller

beforeAll(async () => {
  const real = String(process.env.ETHEREUM_RPC_URL)
  frozen = await startRpcProxy(real)
  frozen.misbehave('silence')
  const dead = `http://127.0.0.1:${await findFreePort()}`
  // Before any handler reads its configuration: clients are built on first use.
  process.env.ETHEREUM_RPC_URL = `${dead},${frozen.url},${real}`
  caller = await fundedCaller()
}, 60_000)

afterAll(async () => {
  await frozen?.close()
})

const quote = () => quoteNativeFor(deployment('ethereum').usdStablecoin, 6)
const transfer = () => transferNative(caller)

describe('several RPC URLs with the first two broken', () => {
  it('answers every chain route from the next URL, trying a broken one once, not per request', async () => {
    const answers = []
    for (let round = 0; round < 4; round++) {
      answers.push((await quote()).status, (await transfer()).status)
    }

    expect(answers).toEqual(Array.from({ length: 8 }, () => 200))
    // The first request found it frozen (one timeout); then it was demoted behind the devnet.
    expect(frozen.requests()).toBe(1)
  })
})
