// A local Serverless Framework plugin (serverless.yml `plugins`), loaded through plugin.cjs
// (tsx's require hook) like esbuild.config.ts. It keeps a stage from being packaged or deployed wrong, and gives every
// function a role of its own with only the grants that function declares (`access:`).

import { type CorsSettings, parseAllowedOrigins } from './allowedOrigins'
import { bundleInOnePass } from './bundleInOnePass'
import { checkDeploymentConfig, compileGradualRollout } from './gradualRollout'
import { collectSourceMaps, leaveSourceMapsOutOfZips } from './sourceMaps'

/** What a function declares it touches; the plugin turns it into that function's role. */
interface FunctionAccess {
  /** DynamoDB actions on the table and its indexes, without the `dynamodb:` prefix. */
  table?: string[]
  /** Names of SSM parameters it reads (decrypted), from `custom.parameters`. */
  parameters?: string[]
}

interface FunctionObject {
  name: string
  handler?: string
  package?: { patterns?: string[] }
  role?: unknown
  access?: FunctionAccess
  events?: Array<Record<string, unknown>>
  destinations?: { onFailure?: unknown }
}

type CloudFormationResource = { Type: string; Properties: Record<string, unknown> }

interface Serverless {
  service: {
    service: string
    custom?: {
      requiredSettings?: Record<string, unknown>
      parameters?: Record<string, string>
      operations?: {
        alarmTopicArn?: string
        /** ALLOWED_ORIGINS: the browser origins of a deployed stage (lib/serverless/allowedOrigins.ts). */
        allowedOrigins?: string
        /** LAMBDA_ROLLOUT: the CodeDeploy configuration of every alias (gradualRollout.ts). */
        rollout?: string
        /** p99 duration alarms, one per group of functions (e.g. money-moving, sign-in). */
        durationAlarms?: Record<string, { functions: string[]; p99Milliseconds: number }>
        /** The API's p99 latency alarm threshold. */
        apiLatencyP99Milliseconds?: number
      }
    }
    provider: {
      stage: string
      region: string
      tracing?: { lambda?: boolean | string }
      httpApi?: { cors?: CorsSettings | boolean }
      compiledCloudFormationTemplate: { Resources: Record<string, CloudFormationResource> }
    }
    getAllFunctions(): string[]
    getFunction(name: string): FunctionObject
  }
  getProvider(name: 'aws'): {
    getStage(): string
    naming: {
      getNormalizedFunctionName(name: string): string
      getLambdaLogicalId(name: string): string
    }
  }
  configSchemaHandler: {
    defineFunctionProperties(provider: 'aws', schema: Record<string, unknown>): void
  }
  classes: { Error: new (message: string) => Error }
  pluginManager: { plugins: object[] }
}

/** The SQS queue (serverless.yml resources) every schedule sends a failed run to. */
const SCHEDULE_FAILURE_QUEUE = 'ScheduleFailureQueue'
/** The metric the access log's 502 answers (a node failed) are counted in. */
const CHAIN_502_METRIC = 'Chain502'
/** Requests in five minutes below which a rate alarm stays quiet (one 5xx in 3 is noise). */
const RATE_ALARM_MIN_REQUESTS = 20
const RATE_ALARM_PERCENT = 5
const PERIOD_SECONDS = 300

const DYNAMODB_ACTIONS = [
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'BatchGetItem',
  'BatchWriteItem',
  'ConditionCheckItem',
]

class DeployRules {
  readonly hooks: Record<string, () => void>

  constructor(private readonly serverless: Serverless) {
    serverless.configSchemaHandler.defineFunctionProperties('aws', {
      properties: {
        access: {
          type: 'object',
          properties: {
            table: { type: 'array', items: { enum: DYNAMODB_ACTIONS } },
            parameters: { type: 'array', items: { type: 'string' } },
          },
          additionalProperties: false,
        },
      },
    })
    const guard = () => this.refuseUndeployableStage()
    this.hooks = {
      'before:package:initialize': guard,
      // `deploy --package <dir>` skips packaging; `deploy function` never packages the service.
      'before:deploy:deploy': guard,
      'before:deploy:function:initialize': guard,
      'before:package:setupProviderConfiguration': () => this.assignRoles(),
      'before:package:compileFunctions': () => this.compileRoles(),
      'after:package:compileEvents': () => this.compileOperations(),
      // Lean zips: no source map inside, the maps a separate artifact (lib/serverless/sourceMaps.ts);
      // every function bundled in one esbuild pass (lib/serverless/bundleInOnePass.ts).
      'after:package:initialize': () => this.prepareBundling(),
      'after:deploy:function:initialize': () => this.prepareBundling(),
      // After the required settings are known to be there (before:package:initialize).
      'package:initialize': () => this.checkOperationsSettings(),
      'after:package:createDeploymentArtifacts': () => {
        collectSourceMaps(this.serverless)
      },
    }
  }

  private prepareBundling(): void {
    leaveSourceMapsOutOfZips(this.serverless)
    bundleInOnePass(this.serverless)
  }

  private get stage(): string {
    return this.serverless.getProvider('aws').getStage()
  }

  /** `local` is the `npm start` stack; any other stage needs every required setting. */
  private refuseUndeployableStage(): void {
    const { Error: ServerlessError } = this.serverless.classes
    if (this.stage === 'local') {
      throw new ServerlessError(
        'Stage "local" runs only under `npm start` (DynamoDB Local, the devnets) and cannot be ' +
          'packaged or deployed: pass --stage <name>, e.g. --stage prod.',
      )
    }
    const required = this.serverless.service.custom?.requiredSettings ?? {}
    const missing = Object.entries(required)
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([name]) => name)
    if (missing.length > 0) {
      throw new ServerlessError(
        `Stage "${this.stage}" is missing ${missing.join(', ')}: set ${
          missing.length === 1 ? 'it' : 'each'
        } in the environment before packaging or deploying (see docs/operations.md, Deploying).`,
      )
    }
  }

  private declaredAccess(): Array<[string, FunctionObject, FunctionAccess]> {
    const { service } = this.serverless
    return service.getAllFunctions().map((name) => {
      const fn = service.getFunction(name)
      if (!fn.access) {
        throw new this.serverless.classes.Error(
          `Function "${name}" declares no \`access:\` in serverless.yml: list the DynamoDB ` +
            'actions and SSM parameters it uses (`access: {}` for none), so it gets a role of its own.',
        )
      }
      return [name, fn, fn.access]
    })
  }

  private roleLogicalId(name: string): string {
    return `${this.serverless.getProvider('aws').naming.getNormalizedFunctionName(name)}LambdaRole`
  }

  /** Names each function's own role before osls decides whether to build its shared one. */
  private assignRoles(): void {
    for (const [name, fn] of this.declaredAccess()) fn.role = this.roleLogicalId(name)
  }

  private compileRoles(): void {
    const { service } = this.serverless
    const resources = service.provider.compiledCloudFormationTemplate.Resources
    const parameterNames = service.custom?.parameters ?? {}
    const tracingMode = service.provider.tracing?.lambda
    const tracing = tracingMode === true || tracingMode === 'Active'
    const arn = (suffix: string) => ({ 'Fn::Sub': `arn:\${AWS::Partition}:${suffix}` })
    for (const [name, fn, access] of this.declaredAccess()) {
      const statements: Array<Record<string, unknown>> = [
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:CreateLogGroup', 'logs:TagResource'],
          Resource: arn(
            `logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${fn.name}:*`,
          ),
        },
        {
          Effect: 'Allow',
          Action: ['logs:PutLogEvents'],
          Resource: arn(
            `logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${fn.name}:*:*`,
          ),
        },
      ]
      if (access.table?.length) {
        statements.push({
          Effect: 'Allow',
          Action: access.table.map((action) => `dynamodb:${action}`),
          Resource: [
            { 'Fn::GetAtt': ['Table', 'Arn'] },
            { 'Fn::Join': ['/', [{ 'Fn::GetAtt': ['Table', 'Arn'] }, 'index', '*']] },
          ],
        })
      }
      if (access.parameters?.length) {
        statements.push({
          Effect: 'Allow',
          // SecureStrings under the AWS managed key aws/ssm decrypt without a kms grant.
          Action: ['ssm:GetParameter'],
          Resource: access.parameters.map((parameter) => {
            const path = parameterNames[parameter]
            if (!path) {
              throw new this.serverless.classes.Error(
                `Function "${name}" reads parameter "${parameter}", which custom.parameters does not name.`,
              )
            }
            return arn(`ssm:\${AWS::Region}:\${AWS::AccountId}:parameter${path}`)
          }),
        })
      }
      if (this.scheduled(fn)) {
        if (!fn.destinations?.onFailure) {
          throw new this.serverless.classes.Error(
            `Function "${name}" runs on a schedule without destinations.onFailure: give it ` +
              'the schedule failure queue, so a failed run is kept and alarmed on.',
          )
        }
        statements.push({
          Effect: 'Allow',
          Action: ['sqs:SendMessage'],
          Resource: { 'Fn::GetAtt': [SCHEDULE_FAILURE_QUEUE, 'Arn'] },
        })
      }
      if (tracing) {
        statements.push({
          Effect: 'Allow',
          Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
          Resource: '*',
        })
      }
      resources[this.roleLogicalId(name)] = {
        Type: 'AWS::IAM::Role',
        Properties: {
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Service: ['lambda.amazonaws.com'] },
                Action: ['sts:AssumeRole'],
              },
            ],
          },
          Policies: [
            {
              PolicyName: `${service.service}-${this.stage}-${name}`,
              PolicyDocument: { Version: '2012-10-17', Statement: statements },
            },
          ],
        },
      }
    }
  }

  private scheduled(fn: FunctionObject): boolean {
    return (fn.events ?? []).some((event) => 'schedule' in event)
  }

  /** Alarms to the stage's SNS topic, the 502 metric, and a dashboard. */
  private compileOperations(): void {
    const { service } = this.serverless
    const naming = this.serverless.getProvider('aws').naming
    const resources = service.provider.compiledCloudFormationTemplate.Resources
    const prefix = `${service.service}-${this.stage}`
    const namespace = `${service.service}/${this.stage}`
    const topic = service.custom?.operations?.alarmTopicArn
    const actions = topic ? { AlarmActions: [topic], OKActions: [topic] } : {}
    const metric = (
      id: string,
      namespaceName: string,
      metricName: string,
      dimensions: Record<string, unknown>,
      stat = 'Sum',
    ) => ({
      Id: id,
      ReturnData: false,
      MetricStat: {
        Metric: {
          Namespace: namespaceName,
          MetricName: metricName,
          Dimensions: Object.entries(dimensions).map(([Name, Value]) => ({ Name, Value })),
        },
        Period: PERIOD_SECONDS,
        Stat: stat,
      },
    })
    const alarm = (
      name: string,
      description: string,
      expression: string,
      metrics: Array<ReturnType<typeof metric>>,
      threshold: number,
    ): CloudFormationResource => ({
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
    const api = { ApiId: { Ref: 'HttpApi' }, Stage: '$default' }
    const rateOf = (errors: string) =>
      `IF(requests >= ${RATE_ALARM_MIN_REQUESTS}, 100 * ${errors} / requests, 0)`

    // One alarm per function for errors (crashes, timeouts) or throttles: 40 functions with two
    // alarms each would take 80 of CloudFormation's 500 resources a stack.
    for (const name of service.getAllFunctions()) {
      const functionName = { FunctionName: { Ref: naming.getLambdaLogicalId(name) } }
      resources[`${naming.getNormalizedFunctionName(name)}FailureAlarm`] = alarm(
        `${name} errors or throttles`,
        `Lambda ${name} failed (uncaught error, timeout) or was throttled in 5 minutes.`,
        'errors + throttles',
        [
          metric('errors', 'AWS/Lambda', 'Errors', functionName),
          metric('throttles', 'AWS/Lambda', 'Throttles', functionName),
        ],
        1,
      )
    }
    resources.Http5xxRateAlarm = alarm(
      'HTTP 5xx rate',
      `More than ${RATE_ALARM_PERCENT}% of API requests answered 5xx in 5 minutes.`,
      rateOf('errors'),
      [
        metric('errors', 'AWS/ApiGateway', '5xx', api),
        metric('requests', 'AWS/ApiGateway', 'Count', api),
      ],
      RATE_ALARM_PERCENT,
    )
    // A 502 is a chain node that failed or timed out (DECISIONS §7.2): counted from the access
    // log, which every answer passes through, at no cost to a function's cold start.
    resources.Chain502MetricFilter = {
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
    }
    resources.Chain502RateAlarm = alarm(
      'chain 502 rate',
      `More than ${RATE_ALARM_PERCENT}% of API requests answered 502 (a chain node failed) in 5 minutes.`,
      rateOf('chain'),
      [
        metric('chain', namespace, CHAIN_502_METRIC, {}),
        metric('requests', 'AWS/ApiGateway', 'Count', api),
      ],
      RATE_ALARM_PERCENT,
    )
    const table = { TableName: { Ref: 'Table' } }
    resources.TableThrottleAlarm = alarm(
      'DynamoDB throttles',
      'The table throttled reads or writes in 5 minutes.',
      'reads + writes',
      [
        metric('reads', 'AWS/DynamoDB', 'ReadThrottleEvents', table),
        metric('writes', 'AWS/DynamoDB', 'WriteThrottleEvents', table),
      ],
      1,
    )
    const queue = { QueueName: { 'Fn::GetAtt': [SCHEDULE_FAILURE_QUEUE, 'QueueName'] } }
    resources.ScheduleFailureAlarm = alarm(
      'schedule failures',
      'A scheduled run failed, or could not start in time; its event waits in the schedule failure queue.',
      'failed',
      [metric('failed', 'AWS/SQS', 'ApproximateNumberOfMessagesVisible', queue, 'Maximum')],
      1,
    )

    // Latency: the p99 duration of each group of functions (the slowest function of the group),
    // and the API's p99 latency once enough requests came in.
    const durationGroups = Object.entries(service.custom?.operations?.durationAlarms ?? {})
    for (const [group, { functions, p99Milliseconds }] of durationGroups) {
      const ids = functions.map((_, index) => `f${index}`)
      resources[`${group[0]?.toUpperCase()}${group.slice(1)}DurationAlarm`] = alarm(
        `${group} p99 duration`,
        `The p99 duration of one of ${functions.join(', ')} reached ${p99Milliseconds} ms in 5 minutes.`,
        `MAX([${ids.join(', ')}])`,
        functions.map((name, index) =>
          metric(
            `f${index}`,
            'AWS/Lambda',
            'Duration',
            { FunctionName: { Ref: naming.getLambdaLogicalId(name) } },
            'p99',
          ),
        ),
        p99Milliseconds,
      )
    }
    const apiLatency = service.custom?.operations?.apiLatencyP99Milliseconds
    if (apiLatency) {
      resources.ApiLatencyAlarm = alarm(
        'API p99 latency',
        `The API's p99 latency reached ${apiLatency} ms in 5 minutes (at least ${RATE_ALARM_MIN_REQUESTS} requests).`,
        `IF(requests >= ${RATE_ALARM_MIN_REQUESTS}, latency, 0)`,
        [
          metric('latency', 'AWS/ApiGateway', 'Latency', api, 'p99'),
          metric('requests', 'AWS/ApiGateway', 'Count', api),
        ],
        apiLatency,
      )
    }
    resources.Dashboard = this.dashboard(namespace)
    compileGradualRollout(
      resources,
      service.getAllFunctions().map((name) => ({
        normalizedName: naming.getNormalizedFunctionName(name),
        functionLogicalId: naming.getLambdaLogicalId(name),
        alarmLogicalId: `${naming.getNormalizedFunctionName(name)}FailureAlarm`,
      })),
      String(service.custom?.operations?.rollout),
    )
  }

  /**
   * The deploy settings of operations, checked like the required ones before anything is built:
   * the browser origins (ALLOWED_ORIGINS, made the stage's CORS origins) and the rollout.
   */
  private checkOperationsSettings(): void {
    const { provider, custom } = this.serverless.service
    const fail = (problem: string) =>
      new this.serverless.classes.Error(
        `Stage "${this.stage}": ${problem} (see docs/operations.md, Deploying).`,
      )
    const rolloutProblem = checkDeploymentConfig(custom?.operations?.rollout)
    if (rolloutProblem) throw fail(rolloutProblem)
    const cors = typeof provider.httpApi?.cors === 'object' ? provider.httpApi.cors : {}
    const parsed = parseAllowedOrigins(custom?.operations?.allowedOrigins, cors)
    if ('problem' in parsed) throw fail(parsed.problem)
    provider.httpApi = {
      ...provider.httpApi,
      cors: parsed.origins.length > 0 ? { ...cors, allowedOrigins: parsed.origins } : false,
    }
  }

  private dashboard(namespace: string): CloudFormationResource {
    const { service } = this.serverless
    const region = service.provider.region
    const functionNames = service.getAllFunctions().map((name) => service.getFunction(name).name)
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
      functionNames.map((name) => ['AWS/Lambda', metricName, 'FunctionName', name])
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
        Object.values(service.custom?.operations?.durationAlarms ?? {})
          .flatMap((group) => group.functions)
          .map((name) => [
            'AWS/Lambda',
            'Duration',
            'FunctionName',
            service.getFunction(name).name,
          ]),
        18,
        0,
        'p99',
      ),
    ]
    return {
      Type: 'AWS::CloudWatch::Dashboard',
      Properties: {
        DashboardName: `${service.service}-${this.stage}`,
        DashboardBody: { 'Fn::Sub': JSON.stringify({ widgets }) },
      },
    }
  }
}

export = DeployRules
