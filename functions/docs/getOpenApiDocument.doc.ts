import type { StaticRouteDoc } from '../../lib/openapi/routeDoc'

// Answers the document, the page or an asset, not the JSON envelope.
export const doc: StaticRouteDoc = {
  summary: 'This OpenAPI document',
  description: 'This document, as the service serves it.',
  contentTypes: ['application/json'],
}
