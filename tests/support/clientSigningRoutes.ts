import type { NetworkName } from '../../lib/networkNames'
import { functionName } from '../../lib/networks/operations'
import { httpEvent, invoke } from './httpEvent'
import { networkHandler } from './networkRoutes'

// The client-signing routes through their real handlers, as a wallet app calls them.

const PREPARE = {
  'swap/tokens': 'prepareSwapTokens',
  'swap/native': 'prepareSwapNative',
  'transfer/tokens': 'prepareTransfer',
} as const

/** A prepare route by the path after `/api/v1/prepare/`: `swap/tokens/ethereum`. */
export type PrepareOperation = `${keyof typeof PREPARE}/${NetworkName}`

/** `POST /api/v1/prepare/<operation>` with the wallet's access token. */
export async function prepareRoute(
  operation: PrepareOperation,
  token: string | undefined,
  body: unknown,
) {
  const network = operation.slice(operation.lastIndexOf('/') + 1) as NetworkName
  const kind = PREPARE[operation.slice(0, operation.lastIndexOf('/')) as keyof typeof PREPARE]
  return invoke(
    await networkHandler(kind, network),
    httpEvent({
      route: functionName(kind, network),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body,
    }),
  )
}

/** `POST /api/v1/submit/<network>` with the wallet's access token and `{ transactions }`. */
export async function submitRoute(
  network: NetworkName,
  token: string,
  transactions: unknown,
  headers: Record<string, string> = {},
) {
  return invoke(
    await networkHandler('submit', network),
    httpEvent({
      route: functionName('submit', network),
      headers: { authorization: `Bearer ${token}`, ...headers },
      body: { transactions },
    }),
  )
}
