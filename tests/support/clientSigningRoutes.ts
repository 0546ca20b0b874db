import { handler as prepareSwapNativeAltchain } from '../../functions/clientSigning/prepareSwapNativeAltchain'
import { handler as prepareSwapTokensAltchain } from '../../functions/clientSigning/prepareSwapTokensAltchain'
import { handler as prepareSwapTokensEthereum } from '../../functions/clientSigning/prepareSwapTokensEthereum'
import { handler as prepareTransferAltchain } from '../../functions/clientSigning/prepareTransferAltchain'
import { handler as prepareTransferEthereum } from '../../functions/clientSigning/prepareTransferEthereum'
import { handler as submitAltchain } from '../../functions/clientSigning/submitAltchain'
import { handler as submitEthereum } from '../../functions/clientSigning/submitEthereum'
import type { NetworkName } from '../../lib/networkNames'
import { httpEvent, invoke } from './httpEvent'

// The client-signing routes through their real handlers, as a wallet app calls them.

const PREPARE = {
  'swap/tokens/ethereum': prepareSwapTokensEthereum,
  'swap/tokens/altchain': prepareSwapTokensAltchain,
  'swap/native/altchain': prepareSwapNativeAltchain,
  'transfer/tokens/ethereum': prepareTransferEthereum,
  'transfer/tokens/altchain': prepareTransferAltchain,
} as const
export type PrepareOperation = keyof typeof PREPARE

/** `POST /api/v1/prepare/<operation>` with the wallet's access token. */
export function prepareRoute(
  operation: PrepareOperation,
  token: string | undefined,
  body: unknown,
) {
  return invoke(
    PREPARE[operation],
    httpEvent({
      routeKey: `POST /api/v1/prepare/${operation}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body,
    }),
  )
}

/** `POST /api/v1/submit/<network>` with the wallet's access token and `{ transactions }`. */
export function submitRoute(
  network: NetworkName,
  token: string,
  transactions: unknown,
  headers: Record<string, string> = {},
) {
  return invoke(
    network === 'ethereum' ? submitEthereum : submitAltchain,
    httpEvent({
      routeKey: `POST /api/v1/submit/${network}`,
      headers: { authorization: `Bearer ${token}`, ...headers },
      body: { transactions },
    }),
  )
}
