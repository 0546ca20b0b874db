import '../support/env'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

const frozen: Partial<Record<NetworkName, RpcProxy>> = {}
let caller: ChainCaller
let startedAt: number
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
  startedAt = performance.now()
}, 60_000)

afterAll(async () => {
  log.write()
  await Promise.all(Object.values(frozen).map((proxy) => proxy.close()))
})

/** How many tries of a broken URL the demotion allows in the time since the first request. */
const allowedTries = () => 1 + Math.floor((performance.now() - startedAt) / DEMOTION_MS)

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

/** The first request found the frozen URL (one timeout); then it was demoted behind the devnet. */
function expectTriedOnce(network: NetworkName) {
  expect(frozen[network]?.requests()).toBeGreaterThanOrEqual(1)
  expect(frozen[network]?.requests()).toBeLessThanOrEqual(allowedTries())
}

// Each network's first contact is its own quote: the frozen URL costs that request one timeout.
describe.each(TESTED_NETWORKS)('%s with its first two RPC URLs broken', (network) => {
  it('answers its quote and transfer routes from the next URL, trying a broken one once, not per request', async () => {
    const routes = {
      quote: () => quoteNativeFor(deployment(network).usdStablecoin, { decimals: 6, network }),
      transfer: () => transferNative(caller, { network }),
    }

    expect(await fourRounds(`${network} dead+frozen`, routes)).toEqual(allServed(routes))
    expectTriedOnce(network)
  })
})

describe('every network with its first two RPC URLs broken', () => {
  it('answers the balances route, which reads them all, without trying a broken URL again', async () => {
    const routes = { balances: () => walletBalances(caller) }

    expect(await fourRounds('both networks dead+frozen', routes)).toEqual(allServed(routes))
    for (const network of NETWORK_NAMES) expectTriedOnce(network)
  })
})
