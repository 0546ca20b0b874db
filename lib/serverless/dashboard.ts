// The stage's CloudWatch dashboard (docs/operations.md, Operations): the API's requests, errors,
// 502s and latency, each function's errors and throttles, the table, the schedule failures and
// the p99 duration of the alarmed functions. Used by deployRules.ts.
import { CHAIN_502_METRIC, PERIOD_SECONDS } from './alarms'
import type { CloudFormationResource } from './serverlessTypes'

export interface DashboardSettings {
  /** `<service>-<stage>`: the dashboard's name. */
  name: string
  region: string
  namespace: string
  /** Every function's deployed name (`wallet-backend-prod-getNonce`). */
  functionNames: string[]
  /** The deployed names of the functions a duration alarm watches. */
  durationAlarmedNames: string[]
}

export function dashboard(settings: DashboardSettings): CloudFormationResource {
  const { region, namespace } = settings
  const api = ['ApiId', '${HttpApi}', 'Stage', '$default']
  const widget = (title: string, metrics: unknown[][], y: number, x: number, stat = 'Sum') => ({
    type: 'metric',
    x,
    y,
    width: 12,
    height: 6,
    properties: { title, region, stat, period: PERIOD_SECONDS, view: 'timeSeries', metrics },
  })
  const perFunction = (metricName: string) =>
    settings.functionNames.map((name) => ['AWS/Lambda', metricName, 'FunctionName', name])
  const widgets = [
    widget(
      'API requests and errors',
      [
        ['AWS/ApiGateway', 'Count', ...api],
        ['AWS/ApiGateway', '4xx', ...api],
        ['AWS/ApiGateway', '5xx', ...api],
        [namespace, CHAIN_502_METRIC],
      ],
      0,
      0,
    ),
    widget('API latency p99 (ms)', [['AWS/ApiGateway', 'Latency', ...api]], 0, 12, 'p99'),
    widget('Lambda errors per function', perFunction('Errors'), 6, 0),
    widget('Lambda throttles per function', perFunction('Throttles'), 6, 12),
    widget(
      'DynamoDB capacity and throttles',
      [
        ['AWS/DynamoDB', 'ConsumedReadCapacityUnits', 'TableName', '${Table}'],
        ['AWS/DynamoDB', 'ConsumedWriteCapacityUnits', 'TableName', '${Table}'],
        ['AWS/DynamoDB', 'ReadThrottleEvents', 'TableName', '${Table}'],
        ['AWS/DynamoDB', 'WriteThrottleEvents', 'TableName', '${Table}'],
      ],
      12,
      0,
    ),
    widget(
      'Failed schedule runs waiting',
      [
        [
          'AWS/SQS',
          'ApproximateNumberOfMessagesVisible',
          'QueueName',
          '${ScheduleFailureQueue.QueueName}',
        ],
      ],
      12,
      12,
      'Maximum',
    ),
    widget(
      'Lambda p99 duration of the alarmed functions (ms)',
      settings.durationAlarmedNames.map((name) => ['AWS/Lambda', 'Duration', 'FunctionName', name]),
      18,
      0,
      'p99',
    ),
  ]
  return {
    Type: 'AWS::CloudWatch::Dashboard',
    Properties: {
      DashboardName: settings.name,
      DashboardBody: { 'Fn::Sub': JSON.stringify({ widgets }) },
    },
  }
}
