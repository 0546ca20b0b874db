import { type RouteDoc, SUBMITTED_ROUTE } from '../../lib/openapi/routeDoc'
import { linkForUsdc, submitExample } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Broadcasts, in order, transactions the signed-in wallet signed from a prepare answer on ethereum, after checking each is one the service would have prepared.',
  ...SUBMITTED_ROUTE,
  example: async () => await submitExample(linkForUsdc),
}
