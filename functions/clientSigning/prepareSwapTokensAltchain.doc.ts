import { type RouteDoc, PREPARED_ROUTE } from '../../lib/openapi/routeDoc'
import { cakeForWbnb } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'The unsigned transactions (an approval where needed, then the swap) that the altchain token swap route would send, for the wallet to sign itself and submit.',
  ...PREPARED_ROUTE,
  example: cakeForWbnb,
}
