import type { InterfaceShape } from '../networks'

// The routes every network of the table gets (DECISIONS §4, §9.5), under the interface's paths
// with the network's name in them: a quote, the `{key}` swaps and transfer, the client-signing
// prepare and submit routes. Each is a function of serverless.yml named after the operation and
// the network (`quoteEthereum`), whose handler file (`functions/swap/quoteEthereum.ts`) and doc
// file `npm run networks` writes (lib/networks/networkFiles.ts) from the operation's route
// (lib/networkRoutes/) and doc (lib/openapi/networkRouteDocs.ts).

export type OperationName =
  | 'quote'
  | 'swapTokens'
  | 'swapNative'
  | 'transfer'
  | 'prepareSwapTokens'
  | 'prepareSwapNative'
  | 'prepareTransfer'
  | 'submit'

export interface NetworkOperation {
  name: OperationName
  /** The folder of its handler under functions/ (and its nested stack's area, were it not a network's). */
  area: 'swap' | 'transfer' | 'clientSigning'
  method: 'GET' | 'POST'
  /** The path template, `<network>` standing for the network's name. */
  path: string
  /** Whether a network of this shape has the route (the native swap routes: altchain's shape). */
  servedOn(shape: InterfaceShape): boolean
  /** The DynamoDB actions it calls (its role, docs/operations.md); beside its network's RPC URL. */
  table: readonly string[]
  /** The partition key prefixes its writes are confined to (`access.writeKeys`), if any. */
  writeKeys?: readonly string[]
  /** It reads the JWT secret (a signed-in route). */
  signedIn: boolean
  /**
   * It sends transactions and may wait for an approval to be mined: up to 28 s (the HTTP API's
   * limit is 30), a reserved concurrency, and the money-moving duration alarm.
   */
  moneyMoving: boolean
}

const always = () => true
const withNativeRoute = (shape: InterfaceShape) => shape.nativeSwapRoute
const EXECUTING_TABLE = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] as const
// Prepares write only their client's RPC budget (lib/http/rpcBudget.ts).
const PREPARE_TABLE = ['GetItem', 'BatchGetItem', 'UpdateItem'] as const

export const NETWORK_OPERATIONS: readonly NetworkOperation[] = [
  {
    name: 'quote',
    area: 'swap',
    method: 'GET',
    path: '/api/v1/swap/quote/<network>',
    servedOn: always,
    // The client's RPC budget (lib/http/rpcBudget.ts), counted in the table, and nothing else.
    table: ['UpdateItem'],
    writeKeys: ['CLIENT#rpc#'],
    signedIn: false,
    moneyMoving: false,
  },
  {
    name: 'swapTokens',
    area: 'swap',
    method: 'POST',
    path: '/api/v1/swap/tokens/<network>/{key}',
    servedOn: always,
    table: EXECUTING_TABLE,
    signedIn: true,
    moneyMoving: true,
  },
  {
    name: 'swapNative',
    area: 'swap',
    method: 'POST',
    path: '/api/v1/swap/native/<network>/{key}',
    servedOn: withNativeRoute,
    table: EXECUTING_TABLE,
    signedIn: true,
    moneyMoving: true,
  },
  {
    name: 'transfer',
    area: 'transfer',
    method: 'POST',
    path: '/api/v1/transfer/tokens/<network>/{key}',
    servedOn: always,
    table: EXECUTING_TABLE,
    signedIn: true,
    moneyMoving: true,
  },
  {
    name: 'prepareSwapTokens',
    area: 'clientSigning',
    method: 'POST',
    path: '/api/v1/prepare/swap/tokens/<network>',
    servedOn: always,
    table: PREPARE_TABLE,
    writeKeys: ['CLIENT#rpc#'],
    signedIn: true,
    moneyMoving: false,
  },
  {
    name: 'prepareSwapNative',
    area: 'clientSigning',
    method: 'POST',
    path: '/api/v1/prepare/swap/native/<network>',
    servedOn: withNativeRoute,
    table: PREPARE_TABLE,
    writeKeys: ['CLIENT#rpc#'],
    signedIn: true,
    moneyMoving: false,
  },
  {
    name: 'prepareTransfer',
    area: 'clientSigning',
    method: 'POST',
    path: '/api/v1/prepare/transfer/tokens/<network>',
    servedOn: always,
    table: PREPARE_TABLE,
    writeKeys: ['CLIENT#rpc#'],
    signedIn: true,
    moneyMoving: false,
  },
  {
    name: 'submit',
    area: 'clientSigning',
    method: 'POST',
    path: '/api/v1/submit/<network>',
    servedOn: always,
    table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    signedIn: true,
    moneyMoving: true,
  },
]

export const capitalized = (name: string): string =>
  `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`

/** The serverless.yml function of an operation on a network: `quoteEthereum`. */
export function functionName(operation: OperationName, network: string): string {
  return `${operation}${capitalized(network)}`
}

/** The route's path on a network: `/api/v1/swap/quote/ethereum`. */
export function operationPath(operation: OperationName, network: string): string {
  const found = NETWORK_OPERATIONS.find((candidate) => candidate.name === operation)
  if (!found) throw new Error(`no network operation ${operation}`)
  return found.path.replace('<network>', network)
}

/** The route key API Gateway logs and the Idempotency-Key's claim names: `POST /api/v1/...`. */
export function operationRouteKey(operation: OperationName, network: string): string {
  const found = NETWORK_OPERATIONS.find((candidate) => candidate.name === operation)
  if (!found) throw new Error(`no network operation ${operation}`)
  return `${found.method} ${operationPath(operation, network)}`
}

/** The operations a network of this shape serves, in the order above. */
export function operationsOf(shape: InterfaceShape): NetworkOperation[] {
  return NETWORK_OPERATIONS.filter((operation) => operation.servedOn(shape))
}
