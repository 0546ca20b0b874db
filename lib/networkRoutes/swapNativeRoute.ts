import { keyParamsSchema, nativeSwapBodySchema, txResultSchema } from '../../schemas/swap'
import { walletGuard } from '../auth/guard'
import { defineHandler } from '../http/defineHandler'
import { rpcBudget } from '../http/rpcBudget'
import { operationRouteKey } from '../networks/operations'
import type { NetworkName } from '../networkNames'
import { signedSwap } from '../swap/signedSwap'
import { SWAP_RPC_CAP } from '../rpcCallCaps'

/** POST /api/v1/swap/native/<network>/{key}: the native coin on exactly one side. */
export function swapNativeRoute(network: NetworkName) {
  const route = operationRouteKey('swapNative', network)
  return defineHandler({
    auth: walletGuard,
    rpcBudget: rpcBudget(SWAP_RPC_CAP),
    // 'guard', the session first: read beside the pools, it would race them to start the claim
    // and the simulation, and the route's steps would vary (tests/functions/requestCosts.test.ts).
    params: keyParamsSchema,
    body: nativeSwapBodySchema,
    result: txResultSchema,
    run: ({ params, body, principal, headers }) =>
      signedSwap({
        network,
        route,
        key: params.key,
        wallet: principal.subject,
        idempotencyKey: headers['idempotency-key'],
        body,
      }),
  })
}
