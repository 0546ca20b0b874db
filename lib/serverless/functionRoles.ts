// One IAM role per function (docs/operations.md, "One role per function"): each function declares
// `access:` in serverless.yml (the DynamoDB actions it calls, the SSM parameters it reads) and
// gets a role with exactly those grants, write access to its own log group, the schedule failure
// queue if it runs on a schedule, and X-Ray where the stage traces. Used by deployRules.ts.
import type {
  CloudFormationResource,
  FunctionAccess,
  FunctionObject,
  Serverless,
} from './serverlessTypes'

/** The SQS queue (serverless.yml resources) every schedule sends a failed run to. */
export const SCHEDULE_FAILURE_QUEUE = 'ScheduleFailureQueue'

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

/** The `access:` function property, as the framework's config schema takes it. */
export const ACCESS_PROPERTY_SCHEMA = {
  type: 'object',
  properties: {
    table: { type: 'array', items: { enum: DYNAMODB_ACTIONS } },
    parameters: { type: 'array', items: { type: 'string' } },
    // A key prefix: a type and its '#' (CLIENT#rpc#), never a bare wildcard.
    writeKeys: { type: 'array', items: { type: 'string', pattern: '^[A-Z_]+#[A-Za-z0-9_#]*$' } },
    connections: { type: 'boolean' },
    stream: { type: 'boolean' },
  },
  additionalProperties: false,
}

export function isScheduled(fn: FunctionObject): boolean {
  return (fn.events ?? []).some((event) => 'schedule' in event)
}

function declaredAccess(serverless: Serverless): Array<[string, FunctionObject, FunctionAccess]> {
  const { service } = serverless
  return service.getAllFunctions().map((name) => {
    const fn = service.getFunction(name)
    if (!fn.access) {
      throw new serverless.classes.Error(
        `Function "${name}" declares no \`access:\` in serverless.yml: list the DynamoDB ` +
          'actions and SSM parameters it uses (`access: {}` for none), so it gets a role of its own.',
      )
    }
    return [name, fn, fn.access]
  })
}

function roleLogicalId(serverless: Serverless, name: string): string {
  return `${serverless.getProvider('aws').naming.getNormalizedFunctionName(name)}LambdaRole`
}

/** Names each function's own role before osls decides whether to build its shared one. */
export function assignRoles(serverless: Serverless): void {
  for (const [name, fn] of declaredAccess(serverless)) fn.role = roleLogicalId(serverless, name)
}

/** Adds each function's role to the compiled template. */
export function compileRoles(serverless: Serverless): void {
  const { service } = serverless
  const stage = serverless.getProvider('aws').getStage()
  const resources = service.provider.compiledCloudFormationTemplate.Resources
  const tracingMode = service.provider.tracing?.lambda
  const tracing = tracingMode === true || tracingMode === 'Active'
  for (const [name, fn, access] of declaredAccess(serverless)) {
    const statements = [
      ...logStatements(fn.name),
      ...tableStatements(access),
      ...parameterStatements(serverless, name, access),
      ...scheduleStatements(serverless, name, fn),
      ...pushStatements(access),
      ...(tracing
        ? [
            {
              Effect: 'Allow',
              Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
              Resource: '*',
            },
          ]
        : []),
    ]
    resources[roleLogicalId(serverless, name)] = lambdaRole(
      `${service.service}-${stage}-${name}`,
      statements,
    )
  }
}

type Statement = Record<string, unknown>

const arn = (suffix: string) => ({ 'Fn::Sub': `arn:\${AWS::Partition}:${suffix}` })

function logStatements(functionName: string): Statement[] {
  const logGroup = `logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${functionName}`
  return [
    {
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:CreateLogGroup', 'logs:TagResource'],
      Resource: arn(`${logGroup}:*`),
    },
    { Effect: 'Allow', Action: ['logs:PutLogEvents'], Resource: arn(`${logGroup}:*:*`) },
  ]
}

const TABLE_RESOURCES = [
  { 'Fn::GetAtt': ['Table', 'Arn'] },
  { 'Fn::Join': ['/', [{ 'Fn::GetAtt': ['Table', 'Arn'] }, 'index', '*']] },
]

/** The actions `writeKeys` confines: they name the item they change by its key. */
const KEYED_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'])

/**
 * The table grants: one statement, or with `writeKeys` two, the writes under a condition that
 * every partition key they touch starts with one of the prefixes (`dynamodb:LeadingKeys`;
 * ForAllValues, and a write always names its key, so the set is never empty).
 */
function tableStatements(access: FunctionAccess): Statement[] {
  if (!access.table?.length) return []
  const statement = (actions: string[], condition?: Statement): Statement[] =>
    actions.length === 0
      ? []
      : [
          {
            Effect: 'Allow',
            Action: actions.map((action) => `dynamodb:${action}`),
            Resource: TABLE_RESOURCES,
            ...(condition && { Condition: condition }),
          },
        ]
  const prefixes = access.writeKeys
  if (!prefixes?.length) return statement(access.table)
  return [
    ...statement(access.table.filter((action) => !KEYED_WRITES.has(action))),
    ...statement(
      access.table.filter((action) => KEYED_WRITES.has(action)),
      {
        'ForAllValues:StringLike': {
          'dynamodb:LeadingKeys': prefixes.map((prefix) => `${prefix}*`),
        },
      },
    ),
  ]
}

function parameterStatements(
  serverless: Serverless,
  name: string,
  access: FunctionAccess,
): Statement[] {
  if (!access.parameters?.length) return []
  const parameterNames = serverless.service.custom?.parameters ?? {}
  return [
    {
      Effect: 'Allow',
      // SecureStrings under the AWS managed key aws/ssm decrypt without a kms grant.
      Action: ['ssm:GetParameter'],
      Resource: access.parameters.map((parameter) => {
        const path = parameterNames[parameter]
        if (!path) {
          throw new serverless.classes.Error(
            `Function "${name}" reads parameter "${parameter}", which custom.parameters does not name.`,
          )
        }
        return arn(`ssm:\${AWS::Region}:\${AWS::AccountId}:parameter${path}`)
      }),
    },
  ]
}

function scheduleStatements(serverless: Serverless, name: string, fn: FunctionObject): Statement[] {
  if (!isScheduled(fn)) return []
  if (!fn.destinations?.onFailure) {
    throw new serverless.classes.Error(
      `Function "${name}" runs on a schedule without destinations.onFailure: give it ` +
        'the schedule failure queue, so a failed run is kept and alarmed on.',
    )
  }
  return [
    {
      Effect: 'Allow',
      Action: ['sqs:SendMessage'],
      Resource: { 'Fn::GetAtt': [SCHEDULE_FAILURE_QUEUE, 'Arn'] },
    },
  ]
}

/** The WebSocket API's @connections (posting) and the table's stream (the fan-out's source). */
function pushStatements(access: FunctionAccess): Statement[] {
  return [
    ...(access.connections
      ? [
          {
            Effect: 'Allow',
            Action: ['execute-api:ManageConnections'],
            Resource: {
              'Fn::Sub':
                'arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${WebsocketsApi}/*/POST/@connections/*',
            },
          },
        ]
      : []),
    ...(access.stream
      ? [
          {
            Effect: 'Allow',
            Action: [
              'dynamodb:DescribeStream',
              'dynamodb:GetRecords',
              'dynamodb:GetShardIterator',
              'dynamodb:ListStreams',
            ],
            Resource: { 'Fn::GetAtt': ['Table', 'StreamArn'] },
          },
        ]
      : []),
  ]
}

function lambdaRole(policyName: string, statements: Statement[]): CloudFormationResource {
  return {
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
          PolicyName: policyName,
          PolicyDocument: { Version: '2012-10-17', Statement: statements },
        },
      ],
    },
  }
}
