import type { StaticRouteDoc } from '../../lib/openapi/routeDoc'

// Answers the document, the page or an asset, not the JSON envelope.
export const doc: StaticRouteDoc = {
  summary: 'A script or style sheet of the reference page',
  description: 'The script or style sheet of the Swagger UI page, gzipped when accepted.',
  contentTypes: ['text/javascript', 'text/css'],
  // The files this function serves (others are 404); a test asks it for each.
  params: { file: ['swagger-ui-bundle.js', 'swagger-ui.css'] },
}
