// Gradual rollout (issue 25): every function is invoked through an alias, `live`, and a deploy
// moves the alias to the new version through CodeDeploy (a canary by default), which rolls back
// when the function's errors-or-throttles alarm goes off. Built here rather than by
// serverless-plugin-canary-deployments: its last release (0.8.0, 2022, unmaintained) leaves each
// schedule's EventInvokeConfig (failure queue, no retry) on $LATEST, which nothing invokes once the
// rule targets the alias. Used by deployRules.ts after the alarms exist.

type Resource = { Type: string; Properties: Record<string, unknown>; [key: string]: unknown }

/** The alias every event source invokes. */
export const LIVE_ALIAS = 'live'
export const CODEDEPLOY_APPLICATION = 'CodeDeployApplication'
export const CODEDEPLOY_ROLE = 'CodeDeployServiceRole'

/** CodeDeploy's predefined Lambda configurations (a stage picks one; canary by default). */
const LAMBDA_DEPLOYMENT_CONFIGS = new Set([
  'CodeDeployDefault.LambdaAllAtOnce',
  'CodeDeployDefault.LambdaCanary10Percent5Minutes',
  'CodeDeployDefault.LambdaCanary10Percent10Minutes',
  'CodeDeployDefault.LambdaCanary10Percent15Minutes',
  'CodeDeployDefault.LambdaCanary10Percent30Minutes',
  'CodeDeployDefault.LambdaLinear10PercentEvery1Minute',
  'CodeDeployDefault.LambdaLinear10PercentEvery2Minutes',
  'CodeDeployDefault.LambdaLinear10PercentEvery3Minutes',
  'CodeDeployDefault.LambdaLinear10PercentEvery10Minutes',
])

export interface RolloutFunction {
  /** The normalized name (`GetProjectDetails`), prefix of every resource of the function. */
  normalizedName: string
  /** `GetProjectDetailsLambdaFunction`. */
  functionLogicalId: string
  /** The alarm whose going off stops the rollout and moves the alias back. */
  alarmLogicalId: string
}

const isRefTo = (value: unknown, logicalId: string) =>
  JSON.stringify(value) === JSON.stringify({ 'Fn::GetAtt': [logicalId, 'Arn'] }) ||
  JSON.stringify(value) === JSON.stringify({ Ref: logicalId })

/** Refuses anything but one of CodeDeploy's Lambda configurations, naming the setting. */
export function checkDeploymentConfig(config: unknown): string | undefined {
  if (typeof config === 'string' && LAMBDA_DEPLOYMENT_CONFIGS.has(config)) return undefined
  return (
    `LAMBDA_ROLLOUT is "${String(config)}": use one of CodeDeploy's Lambda configurations, ` +
    `${[...LAMBDA_DEPLOYMENT_CONFIGS].join(', ')}.`
  )
}

/**
 * Adds an alias, `live`, on each function's published version, a CodeDeploy deployment group
 * per function (CodeDeploy runs one deployment at a time per group, and the 47 aliases move
 * together), and points the HTTP API integrations, the schedules, their invoke permissions and
 * the schedules' failure destinations at the alias instead of `$LATEST`.
 */
export function compileGradualRollout(
  resources: Record<string, Resource>,
  functions: RolloutFunction[],
  deploymentConfig: string,
): void {
  resources[CODEDEPLOY_APPLICATION] = {
    Type: 'AWS::CodeDeploy::Application',
    Properties: { ComputePlatform: 'Lambda' },
  }
  resources[CODEDEPLOY_ROLE] = {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: ['codedeploy.amazonaws.com'] },
            Action: ['sts:AssumeRole'],
          },
        ],
      },
      // AWS's policy for Lambda deployments: read and move aliases, read alarms; nothing else.
      ManagedPolicyArns: [
        {
          'Fn::Sub':
            'arn:${AWS::Partition}:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited',
        },
      ],
    },
  }
  for (const fn of functions) {
    const versionId = Object.keys(resources).find(
      (id) =>
        resources[id]?.Type === 'AWS::Lambda::Version' &&
        isRefTo(resources[id]?.Properties.FunctionName, fn.functionLogicalId),
    )
    if (!versionId) {
      throw new Error(`${fn.functionLogicalId} publishes no version: set versionFunctions: true`)
    }
    const aliasId = `${fn.normalizedName}LiveAlias`
    const groupId = `${fn.normalizedName}DeploymentGroup`
    resources[groupId] = {
      Type: 'AWS::CodeDeploy::DeploymentGroup',
      Properties: {
        ApplicationName: { Ref: CODEDEPLOY_APPLICATION },
        ServiceRoleArn: { 'Fn::GetAtt': [CODEDEPLOY_ROLE, 'Arn'] },
        DeploymentConfigName: deploymentConfig,
        DeploymentStyle: { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' },
        AlarmConfiguration: { Enabled: true, Alarms: [{ Name: { Ref: fn.alarmLogicalId } }] },
        AutoRollbackConfiguration: {
          Enabled: true,
          Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM'],
        },
      },
    }
    resources[aliasId] = {
      Type: 'AWS::Lambda::Alias',
      Properties: {
        FunctionName: { Ref: fn.functionLogicalId },
        FunctionVersion: { 'Fn::GetAtt': [versionId, 'Version'] },
        Name: LIVE_ALIAS,
      },
      UpdatePolicy: {
        CodeDeployLambdaAliasUpdate: {
          ApplicationName: { Ref: CODEDEPLOY_APPLICATION },
          DeploymentGroupName: { Ref: groupId },
        },
      },
    }
    pointAtAlias(resources, fn.functionLogicalId, aliasId)
  }
}

/** `value` with each reference to the function's ARN inside it made one to the alias. */
function replaceArn(value: unknown, functionId: string, alias: unknown): unknown {
  if (isRefTo(value, functionId)) return alias
  if (Array.isArray(value)) return value.map((item) => replaceArn(item, functionId, alias))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, replaceArn(inner, functionId, alias)]),
  )
}

/** Every invoker of the function (integration, rule target, permission) calls the alias. */
function pointAtAlias(resources: Record<string, Resource>, functionId: string, aliasId: string) {
  const alias = { Ref: aliasId }
  for (const resource of Object.values(resources)) {
    const { Properties: properties } = resource
    switch (resource.Type) {
      case 'AWS::ApiGatewayV2::Integration':
        if (isRefTo(properties.IntegrationUri, functionId)) properties.IntegrationUri = alias
        // A WebSocket route's integration names the function inside its invocation URI.
        else properties.IntegrationUri = replaceArn(properties.IntegrationUri, functionId, alias)
        break
      case 'AWS::Lambda::EventSourceMapping':
        if (isRefTo(properties.FunctionName, functionId)) properties.FunctionName = alias
        break
      case 'AWS::Lambda::Permission':
        if (isRefTo(properties.FunctionName, functionId)) properties.FunctionName = alias
        break
      case 'AWS::Events::Rule':
        for (const target of properties.Targets as Array<{ Arn: unknown }>) {
          if (isRefTo(target.Arn, functionId)) target.Arn = alias
        }
        break
      case 'AWS::Lambda::EventInvokeConfig':
        // The failure destination must hold for the invocations the schedule now makes.
        if (isRefTo(properties.FunctionName, functionId)) {
          properties.Qualifier = LIVE_ALIAS
          resource.DependsOn = [aliasId]
        }
        break
    }
  }
}
