import { type RouteDoc, PREPARED_ROUTE } from '../../lib/openapi/routeDoc'
import { bnbForCake } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'The unsigned transactions that the altchain native swap route would send, for the wallet to sign itself and submit.',
  ...PREPARED_ROUTE,
  example: bnbForCake,
}
