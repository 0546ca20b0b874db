import type { NetworkName } from '../networkNames'
import type { OperationName } from '../networks/operations'
import { quoteRoute } from './quoteRoute'
import { swapTokensRoute } from './swapTokensRoute'
import { swapNativeRoute } from './swapNativeRoute'
import { transferRoute } from './transferRoute'
import { prepareSwapTokensRoute } from './prepareSwapTokensRoute'
import { prepareSwapNativeRoute } from './prepareSwapNativeRoute'
import { prepareTransferRoute } from './prepareTransferRoute'
import { submitRoute } from './submitRoute'

// Each network operation's route, by operation (lib/networks/operations.ts): its handler file
// under functions/ builds it for the network its function serves; the API reference and the
// tests build it for each network of the table.

export const NETWORK_ROUTES = {
  quote: quoteRoute,
  swapTokens: swapTokensRoute,
  swapNative: swapNativeRoute,
  transfer: transferRoute,
  prepareSwapTokens: prepareSwapTokensRoute,
  prepareSwapNative: prepareSwapNativeRoute,
  prepareTransfer: prepareTransferRoute,
  submit: submitRoute,
} as const satisfies Record<OperationName, (network: NetworkName) => unknown>

/** The route of `operation` on `network`, as its function runs it. */
export function networkRoute(operation: OperationName, network: NetworkName) {
  return NETWORK_ROUTES[operation](network)
}
