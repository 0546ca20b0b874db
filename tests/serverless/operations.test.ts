import { describe, expect, it } from 'vitest'
import {
  ALARM_TOPIC,
  type Alarm,
  grantedActions,
  useProdTemplate,
} from '../support/packagedTemplate'

// Operations (lib/serverless/alarms.ts, dashboard.ts): alarms to the stage's topic, failed schedule
// runs, metrics, versions, tracing and the dashboard.

const prod = useProdTemplate()

describe('operations', () => {
  const alarms = () =>
    prod.ofType('AWS::CloudWatch::Alarm').map((alarm) => alarm.Properties as unknown as Alarm)
  const alarmOn = (metricName: string) =>
    alarms().filter((alarm) =>
      alarm.Metrics.some((metric) => metric.MetricStat?.Metric.MetricName === metricName),
    )
  const metricNames = (alarm: Alarm) =>
    alarm.Metrics.flatMap((metric) =>
      metric.MetricStat ? [metric.MetricStat.Metric.MetricName] : [],
    )

  it("sends every alarm to the stage's SNS topic", () => {
    expect(alarms().length).toBeGreaterThan(0)
    for (const alarm of alarms()) {
      expect(alarm.AlarmActions).toEqual([ALARM_TOPIC])
      expect(alarm.OKActions).toEqual([ALARM_TOPIC])
      expect(alarm.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold')
    }
  })

  it("alarms on each function's errors and throttles", () => {
    const byFunction = new Map(
      alarmOn('Errors').map((alarm) => [
        JSON.stringify(alarm.Metrics[0]?.MetricStat?.Metric.Dimensions),
        alarm,
      ]),
    )
    for (const id of Object.keys(prod.resources).filter((id) => id.endsWith('LambdaFunction'))) {
      const alarm = byFunction.get(JSON.stringify([{ Name: 'FunctionName', Value: { Ref: id } }]))
      expect(alarm, id).toBeDefined()
      expect(metricNames(alarm as Alarm).sort()).toEqual(['Errors', 'Throttles'])
      expect(alarm?.Threshold).toBe(1)
    }
    expect(byFunction.size).toBe(Object.keys(prod.functions).length)
  })

  it("alarms on the API's 5xx rate and the chain 502 rate, counted from the access log", () => {
    const [http5xx] = alarmOn('5xx')
    const [chain] = alarmOn('Chain502')
    const [filter] = prod.ofType('AWS::Logs::MetricFilter')

    expect(metricNames(http5xx as Alarm).sort()).toEqual(['5xx', 'Count'])
    expect(http5xx?.Metrics.at(-1)?.Expression).toBe(
      'IF(requests >= 20, 100 * errors / requests, 0)',
    )
    expect(http5xx?.Threshold).toBe(5)
    expect(chain?.Metrics.at(-1)?.Expression).toBe('IF(requests >= 20, 100 * chain / requests, 0)')
    expect(filter?.Properties).toMatchObject({
      LogGroupName: { Ref: 'HttpApiLogGroup' },
      FilterPattern: '{ $.status = "502" }',
      MetricTransformations: [
        { MetricNamespace: 'wallet-backend/prod', MetricName: 'Chain502', MetricValue: '1' },
      ],
    })
  })

  it('alarms on DynamoDB throttles and on failed schedule runs', () => {
    const [table] = alarmOn('ReadThrottleEvents')
    const [schedules] = alarmOn('ApproximateNumberOfMessagesVisible')

    expect(metricNames(table as Alarm).sort()).toEqual([
      'ReadThrottleEvents',
      'WriteThrottleEvents',
    ])
    expect(table?.Metrics[0]?.MetricStat?.Metric.Dimensions).toEqual([
      { Name: 'TableName', Value: { Ref: 'Table' } },
    ])
    expect(schedules?.Metrics[0]?.MetricStat?.Metric.Dimensions).toEqual([
      { Name: 'QueueName', Value: { 'Fn::GetAtt': ['ScheduleFailureQueue', 'QueueName'] } },
    ])
  })

  it("sends every schedule's failed run to the failure queue, which only schedules may write", () => {
    const scheduled = Object.entries(prod.functions)
      .filter(([, fn]) => fn.events.some((event) => event.schedule))
      .map(([name]) => name)
    const configs = prod.ofType('AWS::Lambda::EventInvokeConfig').map((config) => config.Properties)

    expect(scheduled).toHaveLength(4)
    expect(configs).toHaveLength(4)
    for (const name of scheduled) {
      const id = `${name[0]?.toUpperCase()}${name.slice(1)}LambdaFunction`
      const config = configs.find(
        (candidate) => JSON.stringify(candidate.FunctionName) === JSON.stringify({ Ref: id }),
      )
      expect(config, name).toMatchObject({
        DestinationConfig: {
          OnFailure: { Destination: { 'Fn::GetAtt': ['ScheduleFailureQueue', 'Arn'] } },
        },
        MaximumRetryAttempts: 0,
      })
    }
    for (const name of Object.keys(prod.functions)) {
      expect(grantedActions(prod.statementsOf(name), 'sqs:'), name).toEqual(
        scheduled.includes(name) ? ['sqs:SendMessage'] : [],
      )
    }
  })

  it("writes business metrics to the stage's namespace, beside the 502 metric", () => {
    for (const fn of prod.ofType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> })
        .Variables
      expect(variables).toMatchObject({
        METRICS_NAMESPACE: 'wallet-backend/prod',
        METRICS_SERVICE: 'wallet-backend',
      })
    }
  })

  it('publishes a version of every function, and protects the table from deletion', () => {
    const versions = prod.ofType('AWS::Lambda::Version')
    const [table] = prod.ofType('AWS::DynamoDB::Table')

    expect(versions).toHaveLength(Object.keys(prod.functions).length)
    expect(table?.Properties.DeletionProtectionEnabled).toBe(true)
  })

  it('leaves X-Ray to the stage: no active tracing and no X-Ray grant by default', () => {
    for (const fn of prod.ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'PassThrough' })
    }
    for (const name of Object.keys(prod.functions)) {
      expect(grantedActions(prod.statementsOf(name), 'xray:')).toEqual([])
    }
  })

  it('draws a dashboard of the API, every function, the table and the schedules', () => {
    const [dashboard] = prod.ofType('AWS::CloudWatch::Dashboard')
    const body = String((dashboard?.Properties.DashboardBody as { 'Fn::Sub': string })['Fn::Sub'])
    const titles = (
      JSON.parse(body) as { widgets: Array<{ properties: { title: string } }> }
    ).widgets.map((widget) => widget.properties.title)

    expect(titles).toEqual([
      'API requests and errors',
      'API latency p99 (ms)',
      'Lambda errors per function',
      'Lambda throttles per function',
      'DynamoDB capacity and throttles',
      'Failed schedule runs waiting',
      'Lambda p99 duration of the alarmed functions (ms)',
    ])
    for (const name of Object.keys(prod.functions))
      expect(body).toContain(`"wallet-backend-prod-${name}"`)
    expect(body).toContain('${HttpApi}')
    expect(body).toContain('${Table}')
  })
})
