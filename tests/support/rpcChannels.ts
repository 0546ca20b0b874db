import { channel } from 'node:diagnostics_channel'

// The channels the service's RPC transport (lib/chain/nodeHttpTransport.ts and rpcPost.ts) publishes on, by
// name as diagnostics channels are: the request counters, the fault engines and the bench
// subscribe here. Nothing is published while no one subscribes.

/** Every JSON-RPC POST body (a string), just before it leaves. */
export const rpcRequestChannel = channel('wallet-backend:rpc-request')

/** Each POST's life: opened when its first call is asked for, closed once its answers are out. */
export const rpcExchangeChannel = channel('wallet-backend:rpc-exchange')

/** The size in bytes of every answer body received (also one cut off at the cap), as it ends. */
export const rpcResponseChannel = channel('wallet-backend:rpc-response')

/** A message of `rpcExchangeChannel`. */
export interface RpcExchangeMessage {
  exchange: number
  phase: 'open' | 'close'
}
