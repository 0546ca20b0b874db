import type * as z from 'zod/mini'
import type { Guard } from '../auth/guard'
import type { RouteDoc, RouteExample, StaticRouteDoc } from './routeDoc'

/** What `defineHandler` attaches to its handler as `route` (lib/http/defineHandler.ts). */
export interface RouteDefinition {
  auth: 'none' | Guard
  params?: z.core.$ZodType
  query?: z.core.$ZodType
  body?: z.core.$ZodType
  result: z.core.$ZodType
  /** Present on routes with a per-client budget (429). */
  clientLimit?: unknown
  /** Present on routes charged the client's RPC budget (429). */
  rpcBudget?: unknown
}

/** One HTTP function of serverless.yml with what its handler declares. */
export interface DocumentedRoute {
  /** The function's name in serverless.yml, used as the operationId. */
  name: string
  /** Its folder under functions/, used as the tag. */
  area: string
  method: string
  path: string
  definition: RouteDefinition
  /** What serverless.yml grants it (`access:`): the table's actions, the SSM parameters. */
  access: { table: string[]; parameters: string[] }
  /** Its doc file (lib/openapi/routeDoc.ts), the example already signed. */
  doc: Omit<RouteDoc, 'example'> & { example: RouteExample }
}

/** A route that answers something other than the JSON envelope (the docs routes). */
export interface StaticRoute {
  name: string
  area: string
  method: string
  path: string
  doc: StaticRouteDoc
}
