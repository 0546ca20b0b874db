import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { NETWORK_NAMES } from '../../lib/networkNames'
import {
  PEAK_WEBSOCKET_MESSAGES_PER_SECOND,
  THROTTLE_HEADROOM,
} from '../../lib/serverless/capacity'
import {
  type PackagedStacks,
  readPackagedStacks,
  type Resource,
  resourceCounts,
} from '../support/packagedStacks'
import { PACKAGE_HOOK_TIMEOUT_MS, packageStage, STACK_LIMIT } from '../support/packagedTemplate'

// The WebSocket API in the packaged deployment (DECISIONS §10.3, issue 41): `serverless package`
// of a stage serving every network of the table, as an operator runs it, without credentials.

const packageDir = mkdtempSync(join(tmpdir(), 'sls-ws-package-'))
let stacks: PackagedStacks

const ofType = (type: string): Array<[string, Resource]> =>
  Object.entries(stacks.flattened).filter(([, resource]) => resource.Type === type)

type Policies = Array<{ PolicyDocument: { Statement: Array<{ Action: string | string[] }> } }>

const actionsOf = (role: Resource): string[] =>
  ((role.Properties.Policies as Policies | undefined) ?? [])
    .flatMap((policy) => policy.PolicyDocument.Statement)
    .flatMap((statement) => statement.Action)

beforeAll(async () => {
  await packageStage('prod', packageDir, { NETWORKS: NETWORK_NAMES.join(',') })
  stacks = readPackagedStacks(packageDir)
}, PACKAGE_HOOK_TIMEOUT_MS)

describe('the WebSocket API, packaged with every network', () => {
  it(`keeps every stack under ${STACK_LIMIT} resources`, () => {
    const counts = resourceCounts(stacks)

    expect(Object.keys(counts).length).toBeGreaterThan(NETWORK_NAMES.length)
    for (const [stack, count] of Object.entries(counts)) {
      expect({ stack, count }).toEqual({
        stack,
        count: expect.toSatisfy((n: number) => n < STACK_LIMIT),
      })
    }
  })

  it('routes $connect, $disconnect, $default, subscribe, unsubscribe and resume by action', () => {
    const [[, api] = ['', undefined]] = ofType('AWS::ApiGatewayV2::Api').filter(
      ([, resource]) => resource.Properties.ProtocolType === 'WEBSOCKET',
    )
    const routeKeys = ofType('AWS::ApiGatewayV2::Route')
      .map(([, route]) => route.Properties.RouteKey)
      .filter((key) => typeof key === 'string' && !key.includes(' '))

    expect(api?.Properties.RouteSelectionExpression).toBe('$request.body.action')
    expect(routeKeys.sort()).toEqual(
      ['$connect', '$default', '$disconnect', 'resume', 'subscribe', 'unsubscribe'].sort(),
    )
  })

  it('lets only the posting functions manage connections, and only the fan-out read the stream', () => {
    const roles = Object.fromEntries(
      ofType('AWS::IAM::Role').map(([id, role]) => [id, actionsOf(role)]),
    )
    const holding = (action: string) =>
      Object.entries(roles)
        .filter(([, actions]) => actions.includes(action))
        .map(([id]) => id)
        .sort()

    expect(holding('execute-api:ManageConnections')).toEqual([
      'WsFanOutLambdaRole',
      'WsResumeLambdaRole',
    ])
    expect(holding('dynamodb:GetRecords')).toEqual(['WsFanOutLambdaRole'])
  })

  it('feeds the fan-out from the table stream, trade and project items only, through its live alias', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping')
    const [[, mapping] = ['', undefined]] = mappings
    const table = ofType('AWS::DynamoDB::Table')[0]?.[1]

    expect(mappings).toHaveLength(1)
    expect(table?.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' })
    expect(mapping?.Properties.FunctionName).toEqual({ Ref: 'WsFanOutLiveAlias' })
    expect(
      (mapping?.Properties.FilterCriteria as { Filters: Array<{ Pattern: string }> }).Filters.map(
        (filter) => JSON.parse(filter.Pattern) as unknown,
      ),
    ).toEqual([
      { dynamodb: { NewImage: { type: { S: ['Trade'] } } } },
      { dynamodb: { OldImage: { type: { S: ['Trade'] } } } },
      { dynamodb: { NewImage: { type: { S: ['Project'] } } } },
    ])
  })

  it(`throttles the WebSocket stage as a capacity guard, ${THROTTLE_HEADROOM} times the peak of lib/serverless/capacity.ts, its burst at least its rate`, () => {
    const stages = ofType('AWS::ApiGatewayV2::Stage').filter(
      ([, stage]) =>
        JSON.stringify(stage.Properties.ApiId) === JSON.stringify({ Ref: 'WebsocketsApi' }),
    )
    const throttle = stages[0]?.[1].Properties.DefaultRouteSettings as
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number } | undefined

    expect(stages).toHaveLength(1)
    expect(throttle?.ThrottlingRateLimit).toBeGreaterThanOrEqual(
      PEAK_WEBSOCKET_MESSAGES_PER_SECOND * THROTTLE_HEADROOM,
    )
    expect(throttle?.ThrottlingBurstLimit).toBeGreaterThanOrEqual(
      throttle?.ThrottlingRateLimit ?? 1,
    )
  })

  it('invokes every WebSocket route through its function’s live alias', () => {
    const integrations = ofType('AWS::ApiGatewayV2::Integration').filter(([id]) =>
      id.endsWith('WebsocketsIntegration'),
    )

    expect(integrations).toHaveLength(6)
    for (const [id, integration] of integrations) {
      const uri = JSON.stringify(integration.Properties.IntegrationUri)
      expect({ id, alias: /LiveAlias/.test(uri) }).toEqual({ id, alias: true })
    }
  })
})
