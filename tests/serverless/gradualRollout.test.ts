import { describe, expect, it } from 'vitest'
import {
  ALARM_TOPIC,
  type Alarm,
  type Resource,
  useProdTemplate,
} from '../support/packagedTemplate'

// Latency alarms and gradual rollout (lib/serverless/gradualRollout.ts): live aliases moved by
// canary deployments, rolled back on their alarms.

const prod = useProdTemplate()

describe('latency and gradual rollout', () => {
  const alarmProperties = (id: string) => prod.resources[id]?.Properties as unknown as Alarm
  const functionsOf = (alarm: Alarm) =>
    alarm.Metrics.flatMap((metric) =>
      metric.MetricStat
        ? [String((metric.MetricStat.Metric.Dimensions[0]?.Value as { Ref: string }).Ref)]
        : [],
    )

  it('alarms on the p99 duration of the money-moving and sign-in functions', () => {
    const money = alarmProperties('MoneyMovingDurationAlarm')
    const signIn = alarmProperties('SignInDurationAlarm')

    expect(functionsOf(money).sort()).toEqual(
      [
        'SwapNativeAltchain',
        'SwapTokensAltchain',
        'SwapTokensEthereum',
        'TransferAltchain',
        'TransferEthereum',
        'SubmitEthereum',
        'SubmitAltchain',
      ]
        .map((name) => `${name}LambdaFunction`)
        .sort(),
    )
    expect(functionsOf(signIn).sort()).toEqual([
      'LoginAccountLambdaFunction',
      'LoginWalletLambdaFunction',
      'RefreshAccountSessionLambdaFunction',
      'RefreshWalletSessionLambdaFunction',
    ])
    for (const alarm of [money, signIn]) {
      const stats = alarm.Metrics.flatMap((metric) =>
        metric.MetricStat ? [metric.MetricStat as unknown as { Stat: string }] : [],
      )
      expect(new Set(stats.map((stat) => stat.Stat))).toEqual(new Set(['p99']))
      expect(alarm.Metrics.at(-1)?.Expression).toMatch(/^MAX\(\[f0, f1, f2, f3/)
      expect(alarm.AlarmActions).toEqual([ALARM_TOPIC])
    }
    // An executing route may wait for a block or two (timeout 28 s); a sign-in may not.
    expect(money.Threshold).toBe(20_000)
    expect(signIn.Threshold).toBe(3_000)
  })

  it("alarms on the API's p99 latency once enough requests came in", () => {
    const latency = alarmProperties('ApiLatencyAlarm')

    expect(latency.Metrics[0]?.MetricStat?.Metric).toEqual({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      Dimensions: [
        { Name: 'ApiId', Value: { Ref: 'HttpApi' } },
        { Name: 'Stage', Value: '$default' },
      ],
    })
    expect(latency.Metrics.at(-1)?.Expression).toBe('IF(requests >= 20, latency, 0)')
    expect(latency.Threshold).toBe(10_000)
  })

  it('gives every function a live alias that a canary deployment moves, rolled back on its alarm', () => {
    for (const name of Object.keys(prod.functions)) {
      const id = `${name[0]?.toUpperCase()}${name.slice(1)}`
      const alias = prod.resources[`${id}LiveAlias`] as Resource & { UpdatePolicy: unknown }
      const group = prod.resources[`${id}DeploymentGroup`]
      const version = Object.entries(prod.resources).find(
        ([, resource]) =>
          resource.Type === 'AWS::Lambda::Version' &&
          JSON.stringify(resource.Properties.FunctionName) ===
            JSON.stringify({ Ref: `${id}LambdaFunction` }),
      )?.[0]

      expect(alias?.Properties, name).toEqual({
        FunctionName: { Ref: `${id}LambdaFunction` },
        FunctionVersion: { 'Fn::GetAtt': [version, 'Version'] },
        Name: 'live',
      })
      expect(alias.UpdatePolicy).toEqual({
        CodeDeployLambdaAliasUpdate: {
          ApplicationName: { Ref: 'CodeDeployApplication' },
          DeploymentGroupName: { Ref: `${id}DeploymentGroup` },
        },
      })
      expect(group?.Properties).toMatchObject({
        DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
        AlarmConfiguration: { Enabled: true, Alarms: [{ Name: { Ref: `${id}FailureAlarm` } }] },
        AutoRollbackConfiguration: {
          Enabled: true,
          Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM'],
        },
      })
      expect(prod.resources[`${id}FailureAlarm`]?.Type).toBe('AWS::CloudWatch::Alarm')
    }
    expect(prod.ofType('AWS::CodeDeploy::Application')).toEqual([
      { Type: 'AWS::CodeDeploy::Application', Properties: { ComputePlatform: 'Lambda' } },
    ])
  })

  it('invokes every function through its alias: routes, schedules, permissions, destinations', () => {
    const aliasRef = (value: unknown) =>
      /^\{"Ref":"\w+LiveAlias"\}$/.test(JSON.stringify(value)) ? 'alias' : JSON.stringify(value)

    // A WebSocket integration takes the alias inside its invocation URI (AWS's only form there).
    const invokedAlias = (value: unknown) =>
      /^\{"Fn::Join":\["",\["arn:",\{"Ref":"AWS::Partition"\},":apigateway:",\{"Ref":"AWS::Region"\},":lambda:path\/2015-03-31\/functions\/",\{"Ref":"\w+LiveAlias"\},"\/invocations"\]\]\}$/.test(
        JSON.stringify(value),
      )
        ? 'alias'
        : JSON.stringify(value)
    const integrations = prod.ofType('AWS::ApiGatewayV2::Integration')
    const httpIntegrations = prod.ofHttpApi('AWS::ApiGatewayV2::Integration')

    expect(httpIntegrations.map((i) => aliasRef(i.Properties.IntegrationUri))).toEqual(
      Array(45).fill('alias'),
    )
    expect(
      integrations
        .filter((i) => !httpIntegrations.includes(i))
        .map((i) => invokedAlias(i.Properties.IntegrationUri)),
    ).toEqual(Array(6).fill('alias'))
    // A permission for each function a route or a schedule invokes; the fan-out is invoked by
    // its stream's event source mapping, through the alias too (websocketStacks.test.ts).
    const invoked = Object.values(prod.functions).filter((fn) =>
      fn.events.some((event) => event.httpApi ?? event.websocket ?? event.schedule),
    )
    expect(
      prod.ofType('AWS::Lambda::Permission').map((p) => aliasRef(p.Properties.FunctionName)),
    ).toEqual(Array(invoked.length).fill('alias'))
    expect(
      prod
        .ofType('AWS::Events::Rule')
        .flatMap((rule) =>
          (rule.Properties.Targets as Array<{ Arn: unknown }>).map((target) =>
            aliasRef(target.Arn),
          ),
        ),
    ).toEqual(Array(4).fill('alias'))
    expect(
      prod.ofType('AWS::Lambda::EventInvokeConfig').map((config) => config.Properties.Qualifier),
    ).toEqual(Array(4).fill('live'))
  })
})
