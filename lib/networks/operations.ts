import type { InterfaceShape } from '../networks'

// The routes every network of the table gets (DECISIONS §4, §9.5), under the interface's paths
// with the network's name in them: a quote, the `{key}` swaps and transfer, the client-signing
// prepare and submit routes. Each has one handler file, `functions/<area>/<operation>.ts`, and
// one block in serverless.yml (`perNetwork: true`, named after the operation) that the deploy
// rules make a function per network the stage serves (lib/networks/networkFunctions.ts), named
// after the operation and the network (`quoteEthereum`) and told its network by `NETWORK`.

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
  /** The folder of its handler under functions/. */
  area: 'swap' | 'transfer' | 'clientSigning'
  method: 'GET' | 'POST'
  /** The path template, `<network>` standing for the network's name. */
  path: string
  /** Whether a network of this shape has the route (the native swap routes: altchain's shape). */
  servedOn(shape: InterfaceShape): boolean
}

const always = () => true
const withNativeRoute = (shape: InterfaceShape) => shape.nativeSwapRoute

export const NETWORK_OPERATIONS: readonly NetworkOperation[] = [
  {
    name: 'quote',
    area: 'swap',
    method: 'GET',
    path: '/api/v1/swap/quote/<network>',
    servedOn: always,
  },
  {
    name: 'swapTokens',
    area: 'swap',
    method: 'POST',
    path: '/api/v1/swap/tokens/<network>/{key}',
    servedOn: always,
  },
  {
    name: 'swapNative',
    area: 'swap',
    method: 'POST',
    path: '/api/v1/swap/native/<network>/{key}',
    servedOn: withNativeRoute,
  },
  {
    name: 'transfer',
    area: 'transfer',
    method: 'POST',
    path: '/api/v1/transfer/tokens/<network>/{key}',
    servedOn: always,
  },
  {
    name: 'prepareSwapTokens',
    area: 'clientSigning',
    method: 'POST',
    path: '/api/v1/prepare/swap/tokens/<network>',
    servedOn: always,
  },
  {
    name: 'prepareSwapNative',
    area: 'clientSigning',
    method: 'POST',
    path: '/api/v1/prepare/swap/native/<network>',
    servedOn: withNativeRoute,
  },
  {
    name: 'prepareTransfer',
    area: 'clientSigning',
    method: 'POST',
    path: '/api/v1/prepare/transfer/tokens/<network>',
    servedOn: always,
  },
  {
    name: 'submit',
    area: 'clientSigning',
    method: 'POST',
    path: '/api/v1/submit/<network>',
    servedOn: always,
  },
]

export const capitalized = (name: string): string =>
  `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`

/** The operation of this name; throws on a name that is none. */
export function networkOperation(name: string): NetworkOperation {
  const found = NETWORK_OPERATIONS.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no network operation ${name}`)
  return found
}

/** The serverless.yml function of an operation on a network: `quoteEthereum`. */
export function functionName(operation: OperationName, network: string): string {
  return `${operation}${capitalized(network)}`
}

/** The route's path on a network: `/api/v1/swap/quote/ethereum`. */
export function operationPath(operation: OperationName, network: string): string {
  return networkOperation(operation).path.replace('<network>', network)
}

/** The route key API Gateway logs and the Idempotency-Key's claim names: `POST /api/v1/...`. */
export function operationRouteKey(operation: OperationName, network: string): string {
  return `${networkOperation(operation).method} ${operationPath(operation, network)}`
}

/** The operations a network of this shape serves, in the order above. */
export function operationsOf(shape: InterfaceShape): NetworkOperation[] {
  return NETWORK_OPERATIONS.filter((operation) => operation.servedOn(shape))
}
