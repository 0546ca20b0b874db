import { describe, expect, it } from 'vitest'
import { resourceCounts } from '../support/packagedStacks'
import {
  environmentBytes,
  type FunctionState,
  LAMBDA_ENVIRONMENT_BYTES,
  STACK_LIMIT,
  useProdTemplate,
  WEBSOCKET_API_RESOURCES,
} from '../support/packagedTemplate'

// Stacks and their limits (lib/serverless/stackLayout.ts, nestedStacks.ts): the root keeps what the
// functions share, one nested stack per area or network, each with room under the limit.

const prod = useProdTemplate()

describe('stacks and their limits', () => {
  it('keeps in the root only what the functions share, and one nested stack per area or network', () => {
    const rootTypes = new Set(Object.values(prod.stacks.root.Resources).map((r) => r.Type))
    const stackOf = (id: string) =>
      Object.entries(prod.stacks.nested).find(([, template]) => id in template.Resources)?.[0]

    for (const type of [
      'AWS::Lambda::Function',
      'AWS::Lambda::Version',
      'AWS::Lambda::Alias',
      'AWS::Lambda::Permission',
      'AWS::ApiGatewayV2::Route',
      'AWS::ApiGatewayV2::Integration',
      'AWS::CodeDeploy::DeploymentGroup',
    ]) {
      expect(rootTypes.has(type), type).toBe(false)
    }
    for (const [name, fn] of Object.entries(prod.functions)) {
      const id = `${name[0]?.toUpperCase()}${name.slice(1)}`
      const area = /^functions\/(\w+)\//.exec(fn.handler)?.[1] ?? ''
      const network = (fn as FunctionState & { network?: string }).network
      const expected = `${(network ?? area)[0]?.toUpperCase()}${(network ?? area).slice(1)}Stack`
      // The function and what is its alone: role, log group, version, alias, alarm, rollout.
      for (const own of [
        `${id}LambdaFunction`,
        `${id}LambdaRole`,
        `${id}LogGroup`,
        `${id}LiveAlias`,
        `${id}FailureAlarm`,
        `${id}DeploymentGroup`,
      ]) {
        expect({ own, stack: stackOf(own) }).toEqual({ own, stack: expected })
      }
    }
    // The root's own: API, stage, table, queue, bucket, CodeDeploy, stage-wide alarms, dashboard.
    expect(prod.stacks.root.Resources.Table?.Type).toBe('AWS::DynamoDB::Table')
    expect(prod.stacks.root.Resources.HttpApiStage?.Type).toBe('AWS::ApiGatewayV2::Stage')
    expect(prod.stacks.root.Resources.MoneyMovingDurationAlarm?.Type).toBe('AWS::CloudWatch::Alarm')
  })

  it(`leaves every stack room for a WebSocket API (${WEBSOCKET_API_RESOURCES} prod.resources) under ${STACK_LIMIT}`, () => {
    const counts = resourceCounts(prod.stacks)

    for (const [stack, count] of Object.entries(counts)) {
      expect({ stack, count }).toEqual({
        stack,
        count: expect.toSatisfy((n: number) => n + WEBSOCKET_API_RESOURCES <= STACK_LIMIT),
      })
    }
    // What the split adds: one stack resource per nested stack, nothing else.
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0)
    expect(total).toBe(Object.keys(prod.resources).length + Object.keys(prod.stacks.nested).length)
  })

  it("keeps every function's environment under Lambda's 4 KB", () => {
    const sizes = prod.ofType('AWS::Lambda::Function').map(environmentBytes)

    expect(sizes.length).toBe(Object.keys(prod.functions).length)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(LAMBDA_ENVIRONMENT_BYTES)
  })
})
