import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { NETWORK_ENTRIES } from '../../lib/networks'
import { functionName, operationPath, operationsOf } from '../../lib/networks/operations'
import { type PackagedStacks, resourceCounts } from '../support/packagedStacks'
import {
  environmentBytes,
  type FunctionState,
  LAMBDA_ENVIRONMENT_BYTES,
  PACKAGE_HOOK_TIMEOUT_MS,
  packageStage,
  readPackagedTemplate,
  STACK_LIMIT,
  useProdTemplate,
  WEBSOCKET_API_RESOURCES,
} from '../support/packagedTemplate'

// A stage serving three networks (lib/serverless/servedNetworks.ts), every function traced
// (LAMBDA_TRACING=Active): a second package beside stage prod's.

const prod = useProdTemplate()

// A second package: a stage serving the table's third network beside the interface's two
// (NETWORKS, DECISIONS §9.5), every function traced (LAMBDA_TRACING=Active).
describe('a stage serving three networks, with active tracing', () => {
  const THREE = 'ethereum,altchain,base'
  let three: PackagedStacks
  let threeFunctions: Record<string, FunctionState & { network?: string }>
  const threeOfType = (type: string) =>
    Object.entries(three.flattened).filter(([, resource]) => resource.Type === type)

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sls-three-'))
    await packageStage('traced', dir, { NETWORKS: THREE, LAMBDA_TRACING: 'Active' })
    ;({ stacks: three, functions: threeFunctions } = readPackagedTemplate(dir))
  }, PACKAGE_HOOK_TIMEOUT_MS)

  it("serves the third network's routes under the interface's paths, from a nested stack of its own", () => {
    const stackOf = (id: string) =>
      Object.entries(three.nested).find(([, template]) => id in template.Resources)?.[0]
    const base = operationsOf(NETWORK_ENTRIES.base.routes)
    const routeKeys = threeOfType('AWS::ApiGatewayV2::Route').map(
      ([, route]) => route.Properties.RouteKey,
    )

    expect(
      Object.entries(threeFunctions)
        .filter(([, fn]) => fn.network === 'base')
        .map(([name]) => name)
        .sort(),
    ).toEqual(base.map((operation) => functionName(operation.name, 'base')).sort())
    for (const operation of base) {
      const name = functionName(operation.name, 'base')
      expect(routeKeys).toContain(`${operation.method} ${operationPath(operation.name, 'base')}`)
      expect(stackOf(`${name[0]?.toUpperCase()}${name.slice(1)}LambdaFunction`)).toBe('BaseStack')
    }
    // Every function but one network's routes now serves three, each with its settings.
    for (const [id, fn] of threeOfType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> })
        .Variables
      expect({ id, ...variables }).toMatchObject({
        id,
        NETWORKS: THREE,
        BASE_RPC_URL_PARAMETER: '/wallet-backend/traced/base-rpc-url',
      })
    }
    expect(threeFunctions.getWalletBalances?.access.parameters).toEqual([
      'jwtSecret',
      'ethereumRpcUrl',
      'altchainRpcUrl',
      'baseRpcUrl',
    ])
    expect(threeFunctions.quoteBase?.access.parameters).toEqual(['baseRpcUrl'])
  })

  it(`leaves every stack room for a WebSocket API (${WEBSOCKET_API_RESOURCES} prod.resources) under ${STACK_LIMIT}, as with two networks`, () => {
    const two = resourceCounts(prod.stacks)
    const counts = resourceCounts(three)

    for (const [stack, count] of Object.entries(counts)) {
      expect({ stack, count }).toEqual({
        stack,
        count: expect.toSatisfy((n: number) => n + WEBSOCKET_API_RESOURCES <= STACK_LIMIT),
      })
    }
    // The third network adds its stack (one resource in the root) and nothing to the others.
    const { root, BaseStack, ...others } = counts
    const { root: twoRoot, ...twoOthers } = two
    expect(root).toBe((twoRoot ?? 0) + 1)
    expect(BaseStack).toBe(10 * operationsOf(NETWORK_ENTRIES.base.routes).length)
    expect(others).toEqual(twoOthers)
  })

  it("keeps every function's environment under Lambda's 4 KB", () => {
    const sizes = threeOfType('AWS::Lambda::Function').map(([, fn]) => environmentBytes(fn))

    expect(sizes.length).toBe(Object.keys(threeFunctions).length)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(LAMBDA_ENVIRONMENT_BYTES)
  })

  it('traces every function and lets each role write traces', () => {
    const lambdas = threeOfType('AWS::Lambda::Function')
    expect(lambdas.length).toBe(Object.keys(threeFunctions).length)
    for (const [, fn] of lambdas) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' })
    }
    // The functions' roles; CodeDeploy's own role traces nothing.
    const functionRoles = threeOfType('AWS::IAM::Role').filter(([, role]) =>
      JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
    )
    expect(functionRoles).toHaveLength(lambdas.length)
    for (const [, role] of functionRoles) {
      expect(JSON.stringify(role.Properties.Policies)).toContain(
        '"Action":["xray:PutTraceSegments","xray:PutTelemetryRecords"]',
      )
    }
  })
})
