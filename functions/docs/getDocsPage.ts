import type { HttpResponse } from '../../lib/http/types'

// Swagger UI from the swagger-ui-dist package, its files served by GET /api/docs/assets/{file}:
// no CDN, and the page itself stays a few hundred bytes.
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>wallet-backend API</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script>
      SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#swagger-ui', validatorUrl: null })
    </script>
  </body>
</html>
`

export const handler = async (): Promise<HttpResponse> => ({
  statusCode: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300' },
  body: PAGE,
})
