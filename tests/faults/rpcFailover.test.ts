import '../support/env'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMOTION_MS } from '../../lib/chain/clients'
import { NETWORK_NAMES, type NetworkName } from '../../lib/networkNames'
import { findFreePort } from '../../lib/local/findFreePort'
import {
  type ChainCaller,
  fundedCaller,
  quoteNativeFor,
  transferNative,
  walletBalances,
} from '../support/chainRoutes'
import { deployment } from '../support/devnetAccounts'
import { faultLog, type RpcProxy, startRpcProxy, timed } from '../support/faultEngines'
import { TESTED_NETWORKS } from '../support/networkCases'

// Three RPC URLs for each network (DECISIONS §7.2): a dead one (nothing listens), a frozen one
// (takes the request, never answers), then the real devnet. Every chain route answers on both
// networks, and a broken provider is tried once per container and DEMOTION_MS, not per request.
// The demotion's clock (Date) is the test's own, so "once per DEMOTION_MS" is counted exactly
// whatever the machine's speed; timeouts keep the real timers.

const frozen: Partial<Record<NetworkName, RpcProxy>> = {}
let caller: ChainCaller
const log = faultLog('rpcFailover')

beforeAll(async () => {
  for (const network of NETWORK_NAMES) {
    const variable = `${network.toUpperCase()}_RPC_URL`
    const real = String(process.env[variable])
    const proxy = await startRpcProxy(real)
    proxy.misbehave('silence')
    frozen[network] = proxy
    const dead = `http://127.0.0.1:${await findFreePort()}`
    // Before any handler reads its configuration: clients are built on first use.
    process.env[variable] = `${dead},${proxy.url},${real}`
  }
  caller = await fundedCaller()
  vi.useFakeTimers({ toFake: ['Date'] })
}, 60_000)

afterAll(async () => {
  vi.useRealTimers()
  log.write()
  await Promise.all(Object.values(frozen).map((proxy) => proxy.close()))
})

type Route = () => Promise<{ status: number }>

/** Calls each route 4 times in turn, logging the time each took; the statuses in call order. */
async function fourRounds(fault: string, routes: Record<string, Route>) {
  const answers: Array<[string, number]> = []
  for (let round = 0; round < 4; round++) {
    for (const [name, route] of Object.entries(routes)) {
      const { result, ms } = await timed(route)
      answers.push([name, result.status])
      log.record({ fault, what: `${name} #${round + 1}`, status: result.status, ms })
    }
  }
  return answers
}

const allServed = (routes: Record<string, Route>) =>
  Array.from({ length: 4 }, () => Object.keys(routes).map((name) => [name, 200])).flat()

/** The requests the frozen URL of each network received so far. */
const frozenRequests = () =>
  Object.fromEntries(NETWORK_NAMES.map((network) => [network, frozen[network]?.requests()]))

// Each network's first contact is its own quote: the frozen URL costs that request one timeout.
describe.each(TESTED_NETWORKS)('%s with its first two RPC URLs broken', (network) => {
  it('answers its quote and transfer routes from the next URL, trying a broken one once, not per request', async () => {
    const routes = {
      quote: () => quoteNativeFor(deployment(network).usdStablecoin, { decimals: 6, network }),
      transfer: () => transferNative(caller, { network }),
    }

    expect(await fourRounds(`${network} dead+frozen`, routes)).toEqual(allServed(routes))
    // The first request found the frozen URL (one timeout); then it was demoted behind the devnet.
    expect(frozen[network]?.requests()).toBe(1)
  })
})

describe('every network with its first two RPC URLs broken', () => {
  it('answers the balances route, which reads them all, without trying a broken URL again', async () => {
    const routes = { balances: () => walletBalances(caller) }

    expect(await fourRounds('both networks dead+frozen', routes)).toEqual(allServed(routes))
    expect(frozenRequests()).toEqual(Object.fromEntries(NETWORK_NAMES.map((name) => [name, 1])))
  })

  it('tries each broken URL once more when its demotion ends, then demotes it again', async () => {
    const routes = { balances: () => walletBalances(caller) }

    vi.advanceTimersByTime(DEMOTION_MS - 1)
    expect(await fourRounds('both networks, demotion not over', routes)).toEqual(allServed(routes))
    expect(frozenRequests()).toEqual(Object.fromEntries(NETWORK_NAMES.map((name) => [name, 1])))

    vi.advanceTimersByTime(1)
    expect(await fourRounds('both networks, demotion over', routes)).toEqual(allServed(routes))
    expect(frozenRequests()).toEqual(Object.fromEntries(NETWORK_NAMES.map((name) => [name, 2])))
  })
})
