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

// The same real engines as `npm start` (DynamoDB Local, two anvil devnets with the DEX, and
// serverless offline), started once per run on free ports. Test files isolate their own data.
// TEST_OFFLINE=0 skips serverless offline when working on in-process tests only (the HTTP tests
// then fail); `npm test` always runs it.
export async function setup(project: TestProject): Promise<void> {
  stack = await startLocalStack({ ports: 'free', offline: process.env.TEST_OFFLINE !== '0' })
  Object.assign(process.env, { ...stack.env, LOG_LEVEL: 'WARN' })
  project.provide('apiUrl', stack.apiUrl ?? 'http://offline-not-started.invalid')
  project.provide('stackEnv', stack.env)
  project.provide('deployments', stack.deployments)
}

export async function teardown(): Promise<void> {
  await stack?.stop()
}
