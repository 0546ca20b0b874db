import type { TestProject } from 'vitest/node'
import type { DexDeployment } from '../../lib/local/deployDex'
import { type LocalStack, servedDeployment, startLocalStack } from '../../lib/local/localStack'
import { NETWORK_NAMES, type NetworkName } from '../../lib/networkNames'
import { keepFreshDevnetStates } from './freshDevnets'

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string
    /** The WebSocket API (ws://) of the suite's offline. */
    wsUrl: string
    stackEnv: Record<string, string>
    /** Every network of the table: the suite's stack serves them all. */
    deployments: Record<NetworkName, DexDeployment>
  }
}

let stack: LocalStack | undefined

// Every client of the suite is 127.0.0.1, and its files sign in, register and quote hundreds of
// times a minute between them: its offline gets per-IP budgets far above the deployed ones (which
// `npm start` keeps). The tests of the budgets themselves run in-process with the defaults.
const SUITE_CLIENT_LIMITS = {
  CLIENT_LIMIT_NONCES_PER_MINUTE: '100000',
  CLIENT_LIMIT_LOGINS_PER_MINUTE: '100000',
  CLIENT_LIMIT_REGISTRATIONS_PER_MINUTE: '100000',
  CLIENT_LIMIT_RPC_CALLS_PER_MINUTE: '100000000',
}

// The same real engines as `npm start` (DynamoDB Local, an anvil devnet with its DEX for each
// network, and serverless offline), started once per run on free ports. Test files isolate their
// own data. The suite's stack serves every network of the table (lib/networks.ts), not only the
// default stage's two, so that tests/e2e/addedNetwork.test.ts meets a third over HTTP: its devnet
// adds no setup time that stands out of the noise (four runs each, load average 13: 26-41 s with
// two, 25-37 s with three). The tests keyed by network run on TEST_NETWORKS' networks, the
// interface's two unless it names more (tests/support/networkCases.ts). TEST_OFFLINE=0 skips
// serverless offline when working on in-process tests only (the HTTP tests then fail); `npm test`
// always runs it.
export async function setup(project: TestProject): Promise<void> {
  stack = await startLocalStack({
    networks: NETWORK_NAMES,
    ports: 'free',
    offline: process.env.TEST_OFFLINE !== '0',
    functionEnv: SUITE_CLIENT_LIMITS,
  })
  // Only offline gets the raised budgets: the in-process handlers (test workers inherit this
  // process's environment and take stackEnv) keep the deployed defaults their own tests assert.
  const inProcessEnv = Object.fromEntries(
    Object.entries(stack.env).filter(([name]) => !(name in SUITE_CLIENT_LIMITS)),
  )
  for (const name of Object.keys(SUITE_CLIENT_LIMITS)) delete process.env[name]
  Object.assign(process.env, { ...inProcessEnv, LOG_LEVEL: 'WARN' })
  project.provide('apiUrl', stack.apiUrl ?? 'http://offline-not-started.invalid')
  project.provide('wsUrl', stack.wsUrl ?? 'ws://offline-not-started.invalid')
  project.provide('stackEnv', inProcessEnv)
  const { deployments } = stack
  project.provide(
    'deployments',
    Object.fromEntries(
      NETWORK_NAMES.map((network) => [network, servedDeployment(deployments, network)]),
    ) as Record<NetworkName, DexDeployment>,
  )
  await keepFreshDevnetStates(deployments)
}

export async function teardown(): Promise<void> {
  await stack?.stop()
}
