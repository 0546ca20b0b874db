import { submitBodySchema, submitResultSchema } from '../../schemas/clientSigning'
import { walletGuard } from '../auth/guard'
import { submitSigned } from '../clientSigning/submitSigned'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import { operationRouteKey } from '../networks/operations'
import type { NetworkName } from '../networkNames'
import { SUBMIT_RPC_CAP } from '../rpcCallCaps'

/**
 * POST /api/v1/submit/<network>: transactions the wallet signed from a prepare route's answer,
 * checked, then broadcast in order.
 */
export function submitRoute(network: NetworkName) {
  const route = operationRouteKey('submit', network)
  return defineHandler({
    auth: walletGuard,
    rpcBudget: rpcBudget(SUBMIT_RPC_CAP),
    // 'guard', the session first: read beside the catalog, the two reads would race to start the
    // claim and the chain reads, and the route's steps would vary (tests/functions/requestCosts).
    body: submitBodySchema,
    result: submitResultSchema,
    run: ({ body, principal, headers }) =>
      submitSigned({
        network,
        route,
        wallet: principal.subject as `0x${string}`,
        idempotencyKey: headers['idempotency-key'],
        transactions: body.transactions as `0x${string}`[],
      }),
  })
}
