// The stage's alarms (docs/operations.md, Operations), each to the SNS topic ALARM_TOPIC_ARN: per
// function errors or throttles (which also roll a deploy back, gradualRollout.ts), the API's 5xx
// and chain-502 rates, table throttles, failed schedule runs, p99 durations and latency. Used by
// deployRules.ts after the events are compiled.
import { SCHEDULE_FAILURE_QUEUE } from './functionRoles'
import type { CloudFormationResource, OperationsSettings } from './serverlessTypes'

/** The metric the access log's 502 answers (a node failed) are counted in. */
export const CHAIN_502_METRIC = 'Chain502'
/** Requests in five minutes below which a rate alarm stays quiet (one 5xx in 3 is noise). */
const RATE_ALARM_MIN_REQUESTS = 20
const RATE_ALARM_PERCENT = 5
export const PERIOD_SECONDS = 300

export interface AlarmedFunction {
  /** Its name in serverless.yml. */
  name: string
  /** `GetNonce`: the prefix of its resources. */
  normalizedName: string
  /** `GetNonceLambdaFunction`. */
  functionLogicalId: string
}

export interface AlarmSettings {
  /** `<service>-<stage>`, the prefix of every alarm's name. */
  prefix: string
  /** The stage's metrics namespace, where the 502 count goes. */
  namespace: string
  functions: AlarmedFunction[]
  operations: OperationsSettings
}

/** The alarm a function's deployment group rolls back on. */
export function failureAlarmLogicalId(normalizedName: string): string {
  return `${normalizedName}FailureAlarm`
}

type Metric = ReturnType<typeof metric>

function metric(
  id: string,
  namespace: string,
  metricName: string,
  dimensions: Record<string, unknown>,
  stat = 'Sum',
) {
  return {
    Id: id,
    ReturnData: false,
    MetricStat: {
      Metric: {
        Namespace: namespace,
        MetricName: metricName,
        Dimensions: Object.entries(dimensions).map(([Name, Value]) => ({ Name, Value })),
      },
      Period: PERIOD_SECONDS,
      Stat: stat,
    },
  }
}

const API = { ApiId: { Ref: 'HttpApi' }, Stage: '$default' }
const rateOf = (errors: string) =>
  `IF(requests >= ${RATE_ALARM_MIN_REQUESTS}, 100 * ${errors} / requests, 0)`

type Alarm = (
  name: string,
  description: string,
  expression: string,
  metrics: Metric[],
  threshold: number,
) => CloudFormationResource

/** An alarm factory for the stage: names prefixed, actions to the topic where there is one. */
function alarmsOf(prefix: string, topic: string | undefined): Alarm {
  const actions = topic ? { AlarmActions: [topic], OKActions: [topic] } : {}
  return (name, description, expression, metrics, threshold) => ({
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: `${prefix} ${name}`,
      AlarmDescription: description,
      Metrics: [...metrics, { Id: 'value', Expression: expression, ReturnData: true }],
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: threshold,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      ...actions,
    },
  })
}

/**
 * One alarm per function for errors (crashes, timeouts) or throttles: two each would double the
 * per-function alarms a stack holds.
 */
function functionAlarms(alarm: Alarm, functions: AlarmedFunction[]) {
  const resources: Record<string, CloudFormationResource> = {}
  for (const fn of functions) {
    const functionName = { FunctionName: { Ref: fn.functionLogicalId } }
    resources[failureAlarmLogicalId(fn.normalizedName)] = alarm(
      `${fn.name} errors or throttles`,
      `Lambda ${fn.name} failed (uncaught error, timeout) or was throttled in 5 minutes.`,
      'errors + throttles',
      [
        metric('errors', 'AWS/Lambda', 'Errors', functionName),
        metric('throttles', 'AWS/Lambda', 'Throttles', functionName),
      ],
      1,
    )
  }
  return resources
}

/** The API's 5xx rate, and its chain-502 rate from the access log's metric filter. */
function errorRateAlarms(alarm: Alarm, namespace: string) {
  return {
    Http5xxRateAlarm: alarm(
      'HTTP 5xx rate',
      `More than ${RATE_ALARM_PERCENT}% of API requests answered 5xx in 5 minutes.`,
      rateOf('errors'),
      [
        metric('errors', 'AWS/ApiGateway', '5xx', API),
        metric('requests', 'AWS/ApiGateway', 'Count', API),
      ],
      RATE_ALARM_PERCENT,
    ),
    // A 502 is a chain node that failed or timed out (DECISIONS §7.2): counted from the access
    // log, which every answer passes through, at no cost to a function's cold start.
    Chain502MetricFilter: {
      Type: 'AWS::Logs::MetricFilter',
      Properties: {
        LogGroupName: { Ref: 'HttpApiLogGroup' },
        FilterPattern: '{ $.status = "502" }',
        MetricTransformations: [
          {
            MetricNamespace: namespace,
            MetricName: CHAIN_502_METRIC,
            MetricValue: '1',
            Unit: 'Count',
          },
        ],
      },
    },
    Chain502RateAlarm: alarm(
      'chain 502 rate',
      `More than ${RATE_ALARM_PERCENT}% of API requests answered 502 (a chain node failed) in 5 minutes.`,
      rateOf('chain'),
      [
        metric('chain', namespace, CHAIN_502_METRIC, {}),
        metric('requests', 'AWS/ApiGateway', 'Count', API),
      ],
      RATE_ALARM_PERCENT,
    ),
  }
}

/** Table throttles and failed schedule runs. */
function backendAlarms(alarm: Alarm) {
  const table = { TableName: { Ref: 'Table' } }
  const queue = { QueueName: { 'Fn::GetAtt': [SCHEDULE_FAILURE_QUEUE, 'QueueName'] } }
  return {
    TableThrottleAlarm: alarm(
      'DynamoDB throttles',
      'The table throttled reads or writes in 5 minutes.',
      'reads + writes',
      [
        metric('reads', 'AWS/DynamoDB', 'ReadThrottleEvents', table),
        metric('writes', 'AWS/DynamoDB', 'WriteThrottleEvents', table),
      ],
      1,
    ),
    ScheduleFailureAlarm: alarm(
      'schedule failures',
      'A scheduled run failed, or could not start in time; its event waits in the schedule failure queue.',
      'failed',
      [metric('failed', 'AWS/SQS', 'ApproximateNumberOfMessagesVisible', queue, 'Maximum')],
      1,
    ),
  }
}

/**
 * Latency: the p99 duration of each group of functions (the slowest function of the group), and
 * the API's p99 latency once enough requests came in.
 */
function latencyAlarms(alarm: Alarm, functions: AlarmedFunction[], operations: OperationsSettings) {
  const resources: Record<string, CloudFormationResource> = {}
  const logicalIdOf = new Map(functions.map((fn) => [fn.name, fn.functionLogicalId]))
  for (const [group, { functions: members, p99Milliseconds }] of Object.entries(
    operations.durationAlarms ?? {},
  )) {
    const ids = members.map((_, index) => `f${index}`)
    resources[`${group[0]?.toUpperCase()}${group.slice(1)}DurationAlarm`] = alarm(
      `${group} p99 duration`,
      `The p99 duration of one of ${members.join(', ')} reached ${p99Milliseconds} ms in 5 minutes.`,
      `MAX([${ids.join(', ')}])`,
      members.map((name, index) => {
        const functionLogicalId = logicalIdOf.get(name)
        if (!functionLogicalId) throw new Error(`durationAlarms.${group} names no function ${name}`)
        return metric(
          `f${index}`,
          'AWS/Lambda',
          'Duration',
          { FunctionName: { Ref: functionLogicalId } },
          'p99',
        )
      }),
      p99Milliseconds,
    )
  }
  const apiLatency = operations.apiLatencyP99Milliseconds
  if (apiLatency) {
    resources.ApiLatencyAlarm = alarm(
      'API p99 latency',
      `The API's p99 latency reached ${apiLatency} ms in 5 minutes (at least ${RATE_ALARM_MIN_REQUESTS} requests).`,
      `IF(requests >= ${RATE_ALARM_MIN_REQUESTS}, latency, 0)`,
      [
        metric('latency', 'AWS/ApiGateway', 'Latency', API, 'p99'),
        metric('requests', 'AWS/ApiGateway', 'Count', API),
      ],
      apiLatency,
    )
  }
  return resources
}

/** Every alarm of the stage, and the metric filter that counts the 502s, by logical id. */
export function compileAlarms({
  prefix,
  namespace,
  functions,
  operations,
}: AlarmSettings): Record<string, CloudFormationResource> {
  const alarm = alarmsOf(prefix, operations.alarmTopicArn)
  return {
    ...functionAlarms(alarm, functions),
    ...errorRateAlarms(alarm, namespace),
    ...backendAlarms(alarm),
    ...latencyAlarms(alarm, functions, operations),
  }
}
