import { COMPONENT_NAMES } from './componentSchemas'
import { infoOf, SERVERS, securitySchemes, tagsOf } from './documentHeader'
import type { DocumentedRoute, StaticRoute } from './documentedRoute'
import { errorComponents, GATEWAY_ERROR } from './errorComponents'
import { type Components, findExamples, JSON_TYPE, type JsonSchema } from './jsonSchemas'
import { type Operation, operationOf, staticOperationOf } from './operations'

export type { DocumentedRoute, RouteDefinition, StaticRoute } from './documentedRoute'

type Routes = Array<DocumentedRoute | StaticRoute>
type Paths = Record<string, Record<string, Operation>>
type JsonContent = Record<string, { schema: JsonSchema; example?: unknown }>

/** Every route's operation by path and method, the component schemas they meet in `components`. */
function pathsOf(routes: Routes, components: Components): Paths {
  const paths: Paths = {}
  for (const route of routes) {
    const operation =
      'definition' in route ? operationOf(route, components) : staticOperationOf(route)
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation }
  }
  return paths
}

/** Each component's example, found in the routes' request and result examples. */
function componentExamples(routes: Routes, paths: Paths, components: Components) {
  const examples = new Map<string, unknown>()
  for (const route of routes) {
    if (!('definition' in route)) continue
    const { requestBody, responses } = paths[route.path]?.[route.method.toLowerCase()] as {
      requestBody?: { content: JsonContent }
      responses: Record<string, { content?: JsonContent }>
    }
    const body = requestBody?.content[JSON_TYPE]
    const answer = responses[200]?.content?.[JSON_TYPE]
    findExamples(body?.schema, body?.example, components, examples)
    findExamples(answer?.schema, answer?.example, components, examples)
  }
  return examples
}

/** The component schemas componentSchemas.ts names, each with its example; no other. */
function namedComponents(components: Components, examples: Map<string, unknown>): Components {
  const named: Components = {}
  for (const name of COMPONENT_NAMES) {
    const schema = components[name]
    if (!schema)
      throw new Error(`lib/openapi/componentSchemas.ts names ${name}, which no route uses`)
    if (!examples.has(name)) throw new Error(`no route example shows the component ${name}`)
    named[name] = { ...schema, examples: [examples.get(name)] }
  }
  const unnamed = Object.keys(components).filter((name) => !(name in named))
  if (unnamed.length > 0)
    throw new Error(`component schemas outside componentSchemas.ts: ${unnamed.join(', ')}`)
  return named
}

/** The OpenAPI 3.1 document of every route, in the order serverless.yml declares them. */
export function buildOpenApiDocument(options: {
  version: string
  license: string
  routes: Routes
}) {
  const components: Components = {}
  const paths = pathsOf(options.routes, components)
  const examples = componentExamples(options.routes, paths, components)
  const { errorSchemas, responses } = errorComponents()
  const named = namedComponents(components, examples)
  return {
    openapi: '3.1.0',
    info: infoOf(options),
    servers: SERVERS,
    tags: tagsOf(options.routes),
    paths,
    components: {
      schemas: { ...named, ...errorSchemas, GatewayError: GATEWAY_ERROR } as Components,
      responses,
      securitySchemes: securitySchemes(),
    },
  }
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>
