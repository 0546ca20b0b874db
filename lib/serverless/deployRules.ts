// A local Serverless Framework plugin (serverless.yml `plugins`), loaded under tsx like
// esbuild.config.ts. It keeps a stage from being packaged or deployed wrong, and gives every
// function a role of its own with only the grants that function declares (`access:`).

/** What a function declares it touches; the plugin turns it into that function's role. */
interface FunctionAccess {
  /** DynamoDB actions on the table and its indexes, without the `dynamodb:` prefix. */
  table?: string[]
  /** Names of SSM parameters it reads (decrypted), from `custom.parameters`. */
  parameters?: string[]
}

interface FunctionObject {
  name: string
  role?: unknown
  access?: FunctionAccess
}

type CloudFormationResource = { Type: string; Properties: Record<string, unknown> }

interface Serverless {
  service: {
    service: string
    custom?: {
      requiredSettings?: Record<string, unknown>
      parameters?: Record<string, string>
    }
    provider: {
      stage: string
      tracing?: { lambda?: boolean | string }
      compiledCloudFormationTemplate: { Resources: Record<string, CloudFormationResource> }
    }
    getAllFunctions(): string[]
    getFunction(name: string): FunctionObject
  }
  getProvider(name: 'aws'): {
    getStage(): string
    naming: { getNormalizedFunctionName(name: string): string }
  }
  configSchemaHandler: {
    defineFunctionProperties(provider: 'aws', schema: Record<string, unknown>): void
  }
  classes: { Error: new (message: string) => Error }
}

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
    }
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
        } in the environment before packaging or deploying (see README, Deploying).`,
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
    const tracing = Boolean(service.provider.tracing?.lambda)
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
}

export = DeployRules
