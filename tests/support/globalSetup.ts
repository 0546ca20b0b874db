import type { TestProject } from 'vitest/node'
import { type LocalStack, startLocalStack } from '../../lib/local/localStack'

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string
    stackEnv: Record<string, string>
    deployments: LocalStack['deployments']
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

// The same real engines as `npm start` (DynamoDB Local, two anvil devnets with the DEX, and
// serverless offline), started once per run on free ports. Test files isolate their own data.
// TEST_OFFLINE=0 skips serverless offline when working on in-process tests only (the HTTP tests
// then fail); `npm test` always runs it.
export async function setup(project: TestProject): Promise<void> {
  stack = await startLocalStack({
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
  project.provide('stackEnv', inProcessEnv)
  project.provide('deployments', stack.deployments)
}

export async function teardown(): Promise<void> {
  await stack?.stop()
}
