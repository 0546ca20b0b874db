import type { HttpResponse } from '../../lib/http/types'
import openApiDocument from '../../schemas/openapi.json'

// The document itself, not in the `{ok, result}` envelope: Swagger UI and code generators read it
// as is. `npm run openapi` writes it; a test keeps it in step with the handlers.
const body = JSON.stringify(openApiDocument)

export const handler = async (): Promise<HttpResponse> => ({
  statusCode: 200,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=300',
  },
  body,
})
