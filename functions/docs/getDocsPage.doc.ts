import type { StaticRouteDoc } from '../../lib/openapi/routeDoc'

// Answers the document, the page or an asset, not the JSON envelope.
export const doc: StaticRouteDoc = {
  summary: 'The API reference page (Swagger UI)',
  description: 'Swagger UI over this document.',
  contentTypes: ['text/html'],
}
