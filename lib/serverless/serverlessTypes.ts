// What the deploy rules read and write of the Serverless Framework (osls 3) instance: the
// service's functions and settings, the compiled template, the AWS provider's naming. Shared by
// the plugin (deployRules.ts) and the modules it calls.
import type { CorsSettings } from './allowedOrigins'

/** What a function declares it touches; the plugin turns it into that function's role. */
export interface FunctionAccess {
  /** DynamoDB actions on the table and its indexes, without the `dynamodb:` prefix. */
  table?: string[]
  /** Names of SSM parameters it reads (decrypted), from `custom.parameters`. */
  parameters?: string[]
  /**
   * The partition key prefixes its writes (PutItem, UpdateItem, DeleteItem) are confined to, by
   * an IAM `dynamodb:LeadingKeys` condition (DECISIONS §10.4); unconfined when absent.
   */
  writeKeys?: string[]
  /** Posts to WebSocket connections: execute-api:ManageConnections on the WebSocket API only. */
  connections?: boolean
  /** Reads the table's stream (the fan-out's event source). */
  stream?: boolean
}

export interface FunctionObject {
  name: string
  handler?: string
  package?: { patterns?: string[] }
  role?: unknown
  access?: FunctionAccess
  events?: Array<Record<string, unknown>>
  destinations?: { onFailure?: unknown }
  /** The network a per-network route serves (lib/networks.ts); none for the others. */
  network?: string
  /** A network operation's block, made a function per served network (servedNetworks.ts). */
  perNetwork?: boolean
  environment?: Record<string, unknown>
}

export type CloudFormationResource = {
  Type: string
  Properties: Record<string, unknown>
  [attribute: string]: unknown
}

export interface OperationsSettings {
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

export interface Serverless {
  serviceDir: string
  service: {
    service: string
    custom?: {
      /** NETWORKS: the networks of the table the stage serves (lib/serverless/servedNetworks.ts). */
      servedNetworks?: string
      requiredSettings?: Record<string, unknown>
      parameters?: Record<string, string>
      operations?: OperationsSettings
    }
    functions?: Record<string, FunctionObject>
    provider: {
      stage: string
      environment?: Record<string, unknown>
      region: string
      tracing?: { lambda?: boolean | string }
      httpApi?: { cors?: CorsSettings | boolean }
      deploymentBucket?: string | { name?: string }
      compiledCloudFormationTemplate: {
        Resources: Record<string, CloudFormationResource>
        Outputs?: Record<string, { Value: unknown }>
      }
    }
    package: { artifactDirectoryName?: string }
    getAllFunctions(): string[]
    getFunction(name: string): FunctionObject
  }
  getProvider(name: 'aws'): {
    getStage(): string
    naming: {
      getNormalizedFunctionName(name: string): string
      getLambdaLogicalId(name: string): string
    }
    request(service: string, method: string, params: Record<string, unknown>): Promise<unknown>
    getServerlessDeploymentBucketName(): Promise<string>
  }
  configSchemaHandler: {
    defineFunctionProperties(provider: 'aws', schema: Record<string, unknown>): void
  }
  classes: { Error: new (message: string) => Error }
  pluginManager: { plugins: object[] }
}
