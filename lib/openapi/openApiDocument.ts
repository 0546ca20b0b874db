import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import packageJson from '../../package.json'
import { networkRoute } from '../networkRoutes/networkRoutes'
import type { NetworkName } from '../networkNames'
import { declaredFunctions } from './declaredFunctions'
import { exampleOf, loadRouteDoc } from './routeDoc'
import {
  buildOpenApiDocument,
  type DocumentedRoute,
  type OpenApiDocument,
  type RouteDefinition,
  type StaticRoute,
} from './buildOpenApiDocument'

/** Where `npm run openapi` writes the document; GET /api/docs/openapi.json serves it. */
export const OPENAPI_FILE = 'schemas/openapi.json'

function routeOf(module: unknown): RouteDefinition | undefined {
  const handler = (module as { handler?: { route?: RouteDefinition } }).handler
  return handler?.route
}

/**
 * Every HTTP route of serverless.yml, each described by the definition its handler module was
 * built with (so method and path come from serverless.yml, auth and schemas from the handler) and
 * by the doc file beside it (lib/openapi/routeDoc.ts).
 */
export async function loadRoutes(): Promise<Array<DocumentedRoute | StaticRoute>> {
  const routes: Array<DocumentedRoute | StaticRoute> = []
  for (const fn of declaredFunctions()) {
    if (!fn.route) continue
    const area = fn.entry.split('/')[1] ?? fn.name
    const network =
      fn.operation && fn.network
        ? { operation: fn.operation, network: fn.network as NetworkName }
        : undefined
    const doc = await loadRouteDoc(fn.entry, network?.network)
    if (!('example' in doc)) {
      routes.push({ name: fn.name, area, ...fn.route, doc })
      continue
    }
    // A network operation's handler is built for its function's NETWORK: built here for each.
    const definition = routeOf(
      network
        ? { handler: networkRoute(network.operation, network.network) }
        : await import(pathToFileURL(resolve(fn.entry)).href),
    )
    if (!definition) throw new Error(`${fn.entry}: the handler was not built by defineHandler`)
    const example = await exampleOf(doc)
    routes.push({
      name: fn.name,
      area,
      ...fn.route,
      definition,
      access: fn.access,
      doc: { ...doc, example },
    })
  }
  return routes
}

export async function openApiDocument(): Promise<OpenApiDocument> {
  return buildOpenApiDocument({
    version: packageJson.version,
    license: packageJson.license,
    routes: await loadRoutes(),
  })
}

export function serializeOpenApi(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`
}
