import { DEFAULT_NETWORK_NAMES, NETWORK_NAMES, NETWORKS, type NetworkName } from '../networkNames'
import type { WantedPort } from './checkPorts'
import { findFreePort } from './findFreePort'

/** DynamoDB Local, serverless offline's HTTP, WebSocket and Lambda ports, and a devnet per network. */
export type LocalStackPorts = { dynamo: number; http: number; ws: number; lambda: number } & Record<
  NetworkName,
  number
>

export const DEFAULT_PORTS: LocalStackPorts = {
  dynamo: 8000,
  // Each devnet's port is its entry's in the network table (lib/networks.ts).
  ...(Object.fromEntries(
    NETWORK_NAMES.map((network) => [network, NETWORKS[network].devnet.port]),
  ) as Record<NetworkName, number>),
  http: 3000,
  ws: 3001,
  lambda: 3002,
}

/** Fixed ports, the defaults, or a free one for each ('free'). */
export async function choosePorts(ports?: LocalStackPorts | 'free'): Promise<LocalStackPorts> {
  return ports === 'free' ? freeStackPorts() : (ports ?? DEFAULT_PORTS)
}

/** A free port for each engine and server of the stack. */
export async function freeStackPorts(): Promise<LocalStackPorts> {
  const [dynamo, http, ws, lambda, devnets] = await Promise.all([
    findFreePort(),
    findFreePort(),
    findFreePort(),
    findFreePort(),
    Promise.all(NETWORK_NAMES.map(async (network) => [network, await findFreePort()] as const)),
  ])
  return {
    dynamo,
    http,
    ws,
    lambda,
    ...(Object.fromEntries(devnets) as Record<NetworkName, number>),
  }
}

/** Every port the stack binds, on the address its service binds, with what wants it. */
export function wantedPorts(
  ports: LocalStackPorts,
  offline: boolean,
  networks: readonly NetworkName[] = DEFAULT_NETWORK_NAMES,
): WantedPort[] {
  return [
    // DynamoDB Local's jar has no bind option: it takes the port on every interface.
    { port: ports.dynamo, service: 'DynamoDB Local' },
    ...networks.map((network) => ({
      port: ports[network],
      host: '127.0.0.1',
      service: `anvil (${network} devnet)`,
    })),
    ...(offline
      ? [
          { port: ports.http, host: '127.0.0.1', service: 'serverless offline (HTTP API)' },
          { port: ports.ws, host: '127.0.0.1', service: 'serverless offline (WebSocket API)' },
          { port: ports.lambda, host: '127.0.0.1', service: 'serverless offline (lambda invoke)' },
        ]
      : []),
  ]
}
