import { keyParamsSchema, transferBodySchema, txResultSchema } from '../../schemas/swap'
import { walletGuard } from '../auth/guard'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import { operationRouteKey } from '../networks/operations'
import type { NetworkName } from '../networkNames'
import { signedTransfer } from '../transfer/signedTransfer'
import { TRANSFER_RPC_CAP } from '../rpcCallCaps'

/** POST /api/v1/transfer/tokens/<network>/{key}: the native coin or a token. */
export function transferRoute(network: NetworkName) {
  const route = operationRouteKey('transfer', network)
  return defineHandler({
    auth: walletGuard,
    rpcBudget: rpcBudget(TRANSFER_RPC_CAP),
    // Read beside the chain reads; the Idempotency-Key's claim and the broadcast wait for it.
    sessionRead: 'beside',
    params: keyParamsSchema,
    body: transferBodySchema,
    result: txResultSchema,
    run: ({ params, body, principal, headers }) =>
      signedTransfer({
        network,
        route,
        key: params.key,
        wallet: principal.subject,
        idempotencyKey: headers['idempotency-key'],
        body,
      }),
  })
}
