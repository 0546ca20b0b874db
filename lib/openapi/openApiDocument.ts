import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import packageJson from '../../package.json'
import { declaredFunctions } from './declaredFunctions'
import { routeExamples } from './routeExamples'
import {
  buildOpenApiDocument,
  type DocumentedRoute,
  type OpenApiDocument,
  type RouteDefinition,
  type StaticRoute,
} from './buildOpenApiDocument'

/** Where `npm run openapi` writes the document; GET /api/docs/openapi.json serves it. */
export const OPENAPI_FILE = 'schemas/openapi.json'

// The docs routes answer the document, a page and its assets, not the JSON envelope.
const STATIC_ROUTES: Record<string, Pick<StaticRoute, 'summary' | 'contentTypes' | 'params'>> = {
  getOpenApiDocument: { summary: 'This OpenAPI document', contentTypes: ['application/json'] },
  getDocsPage: { summary: 'The API reference page (Swagger UI)', contentTypes: ['text/html'] },
  getDocsAsset: {
    summary: 'A script or style sheet of the reference page',
    contentTypes: ['text/javascript', 'text/css'],
    // The files functions/docs/getDocsAsset.ts serves (a test asks it for each).
    params: { file: ['swagger-ui-bundle.js', 'swagger-ui.css'] },
  },
}

function routeOf(module: unknown): RouteDefinition | undefined {
  const handler = (module as { handler?: { route?: RouteDefinition } }).handler
  return handler?.route
}

/**
 * Every HTTP route of serverless.yml, each described by the definition its handler module was
 * built with (so method and path come from serverless.yml, auth and schemas from the handler).
 */
export async function loadRoutes(): Promise<Array<DocumentedRoute | StaticRoute>> {
  const routes: Array<DocumentedRoute | StaticRoute> = []
  for (const fn of declaredFunctions()) {
    if (!fn.route) continue
    const area = fn.entry.split('/')[1] ?? fn.name
    const fixed = STATIC_ROUTES[fn.name]
    if (fixed) {
      routes.push({ name: fn.name, area, ...fn.route, ...fixed })
      continue
    }
    const definition = routeOf(await import(pathToFileURL(resolve(fn.entry)).href))
    if (!definition) throw new Error(`${fn.entry}: the handler was not built by defineHandler`)
    routes.push({ name: fn.name, area, ...fn.route, definition, access: fn.access })
  }
  return routes
}

export async function openApiDocument(): Promise<OpenApiDocument> {
  return buildOpenApiDocument({
    version: packageJson.version,
    license: packageJson.license,
    routes: await loadRoutes(),
    examples: await routeExamples(),
  })
}

export function serializeOpenApi(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`
}
