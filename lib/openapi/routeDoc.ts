import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ErrorStatus } from './errorResponses'
import type { NetworkName } from '../networkNames'

// A route is described once, beside its handler: `functions/<area>/<name>.doc.ts` says what it
// does, the errors its core can answer and an example request with its result. The OpenAPI
// builder reads it (and fails on a route without one), and so does the tests' request registry
// (tests/support/routeRequests.ts), which sends the documented request where the devnets can
// serve it as written. A separate file, not a field of `defineHandler`: the examples sign
// transactions and tokens, which no Lambda bundle should carry.

/** A request as a client sends it (query integers as integers) and the `result` it gets. */
export interface RouteExample {
  params?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: unknown
  result: unknown
}

export interface RouteDoc {
  /** What the route does, in a sentence or two for the reader of the document. */
  description: string
  /**
   * The errors its core can answer beyond what its definition and its role imply: 400 with any
   * input, 413 and 415 with a body, 401001..401003 with a token, 429 and 500 always; 503 when
   * serverless.yml grants it table actions, 502 when it grants an RPC URL parameter.
   */
  errors: ErrorStatus[]
  /** Can answer 401004 (credentials rejected). */
  credentials?: true
  /** Takes an `Idempotency-Key` header. */
  idempotencyKey?: true
  /** Reads a chain node but answers without it when it fails (no 502). */
  chainOptional?: true
  /** A function where the example signs something (a token, a transaction). */
  example: RouteExample | (() => Promise<RouteExample>)
}

/** A route answering something other than the JSON envelope (the docs routes). */
export interface StaticRouteDoc {
  summary: string
  description: string
  /** The media types it answers with. */
  contentTypes: string[]
  /** Its path parameters, each with the values it answers for (others are 404). */
  params?: Record<string, string[]>
}

/** A swap or transfer signed with `{key}`: the key can be refused, a retry sends nothing twice. */
export const SIGNED_ROUTE = {
  errors: [409, 422],
  credentials: true,
  idempotencyKey: true,
} as const satisfies Omit<RouteDoc, 'description' | 'example'>

/** Signing on the client: prepare reads and refuses what the chain cannot serve. */
export const PREPARED_ROUTE = { errors: [422] } as const satisfies Omit<
  RouteDoc,
  'description' | 'example'
>

/**
 * Submit also refuses a transaction the service would not have prepared (422), and takes an
 * Idempotency-Key.
 */
export const SUBMITTED_ROUTE = { errors: [409, 422], idempotencyKey: true } as const satisfies Omit<
  RouteDoc,
  'description' | 'example'
>

/**
 * A trade lookup settles a pending trade when the node has its receipt, and answers it pending
 * when the node fails (lib/trades/lookupTrade.ts).
 */
export const TRADE_LOOKUP_ROUTE = { errors: [404], chainOptional: true } as const satisfies Omit<
  RouteDoc,
  'description' | 'example'
>

/** The doc file beside a handler (`functions/swap/listSwapTokens.ts`'s `listSwapTokens.doc.ts`; a network operation's `docOf` gives each network's). */
export async function loadRouteDoc(
  entry: string,
  network?: NetworkName,
): Promise<RouteDoc | StaticRouteDoc> {
  const file = entry.replace(/\.ts$/, '.doc.ts')
  const module = (await import(pathToFileURL(resolve(file)).href).catch((error: unknown) => {
    throw new Error(`${entry}: no route doc beside it (${file})`, { cause: error })
  })) as { doc?: RouteDoc | StaticRouteDoc; docOf?: (network: NetworkName) => RouteDoc }
  // A network operation's file documents each network's function (`docOf`).
  const doc = network ? module.docOf?.(network) : module.doc
  if (!doc) throw new Error(`${file} exports no \`${network ? 'docOf' : 'doc'}\``)
  return doc
}

/** The example of a route doc, signed where it signs. */
export async function exampleOf(doc: RouteDoc): Promise<RouteExample> {
  return typeof doc.example === 'function' ? doc.example() : doc.example
}
