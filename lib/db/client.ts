import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { admitted } from '../admission'
import { loadCoreConfig } from '../config'
import { DatabaseUnavailable } from '../errors'

// Failures that mean "the database cannot serve us now": throttling after the SDK's own retries,
// timeouts, refused connections and any server-side failure (5xx). They become a prompt 503
// instead of a hang or a 500.
const UNAVAILABLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  // DynamoDB Local's name for its own failures (a query too heavy for it, for one).
  'InternalFailure',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
])
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
])

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const { code, $fault, $metadata, cause } = error as {
    code?: unknown
    $fault?: unknown
    $metadata?: { httpStatusCode?: unknown }
    cause?: unknown
  }
  const status = $metadata?.httpStatusCode
  return (
    UNAVAILABLE_NAMES.has(error.name) ||
    (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) ||
    // A 5xx the SDK could name (`Unknown` for a 503 without a body) or not even parse (a
    // gateway's 504 page is a SyntaxError carrying the status): the service failed, not us.
    $fault === 'server' ||
    (typeof status === 'number' && status >= 500) ||
    isDatabaseUnavailable(cause)
  )
}

// The commands that change nothing; any other waits for the request's session (lib/admission.ts).
const READ_COMMANDS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
])

function createDocumentClient(): DynamoDBDocumentClient {
  const config = loadCoreConfig()
  const client = new DynamoDBClient({
    region: config.region,
    maxAttempts: config.dynamoMaxAttempts,
    requestHandler: {
      connectionTimeout: config.dynamoRequestTimeoutMs,
      requestTimeout: config.dynamoRequestTimeoutMs,
      // Without this the SDK only logs a warning when requestTimeout passes and keeps waiting.
      throwOnRequestTimeout: true,
    },
    ...(config.dynamoEndpoint && {
      endpoint: config.dynamoEndpoint,
      // DynamoDB Local accepts any credentials; these keep the SDK from searching for real ones.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  })
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args)
      } catch (error) {
        throw isDatabaseUnavailable(error) ? new DatabaseUnavailable() : error
      }
    },
    { step: 'initialize', name: 'translateUnavailable' },
  )
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!READ_COMMANDS.has(context.commandName ?? '')) await admitted()
      return next(args)
    },
    { step: 'initialize', name: 'writeOnceAdmitted' },
  )
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  })
}

let documentClient: DynamoDBDocumentClient | undefined

/** The document client, created once per container on first use. */
export function db(): DynamoDBDocumentClient {
  return (documentClient ??= createDocumentClient())
}

export function tableName(): string {
  return loadCoreConfig().tableName
}
