import { preparedTransferResultSchema } from '../../schemas/clientSigning'
import { transferBodySchema } from '../../schemas/swap'
import { walletGuard } from '../auth/guard'
import { prepareTransfer } from '../clientSigning/prepareTransfer'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import type { NetworkName } from '../networkNames'
import { PREPARE_TRANSFER_RPC_CAP } from '../rpcCallCaps'

/**
 * POST /api/v1/prepare/transfer/tokens/<network>: the transaction the network's transfer route
 * would send, unsigned.
 */
export function prepareTransferRoute(network: NetworkName) {
  return defineHandler({
    auth: walletGuard,
    rpcBudget: rpcBudget(PREPARE_TRANSFER_RPC_CAP),
    // Prepare writes and sends nothing: the session is read while the route reads.
    sessionRead: 'beside',
    body: transferBodySchema,
    result: preparedTransferResultSchema,
    run: ({ body, principal }) =>
      prepareTransfer({ network, owner: principal.subject as `0x${string}`, ...body }),
  })
}
