import { type RouteDoc, PREPARED_ROUTE } from '../../lib/openapi/routeDoc'
import { ethereumTransfer } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'The unsigned transaction that the ethereum transfer route would send, for the wallet to sign itself and submit.',
  ...PREPARED_ROUTE,
  example: ethereumTransfer,
}
