import middy from '@middy/core'
import httpHeaderNormalizer from '@middy/http-header-normalizer'
import type * as z from '../../schemas/zod'
import { whileAdmitting } from '../admission'
import { accessLog } from './accessLog'
import { authenticate } from './authenticate'
import type { ClientLimit } from './clientLimit'
import type { RpcBudget } from './rpcBudget'
import { envelope } from './envelope'
import { errorHandler } from './errorHandler'
import { jsonBody } from './jsonBody'
import type { Guard } from '../auth/guard'
import type { Principal } from '../auth/principal'
import { type HandlerContext, type HttpEvent, type HttpResponse, sourceIpOf } from './types'
import { validateInput } from './validateInput'

type Infer<Schema> = Schema extends z.ZodMiniType ? z.infer<Schema> : undefined

export interface HandlerInput<Params, Query, Body, Auth> {
  params: Params
  query: Query
  body: Body
  principal: Auth
  headers: Record<string, string | undefined>
  /** The caller's address (API Gateway's `sourceIp`): a core that spends a per-client budget. */
  sourceIp: string
}

/** When the session is read: only a route with a guard has one (DECISIONS §7.1, issue 35). */
export type SessionReadOption<AuthOption> = AuthOption extends Guard ? 'guard' | 'beside' : never

export interface HandlerDefinition<
  ParamsSchema extends z.ZodMiniType | undefined,
  QuerySchema extends z.ZodMiniType | undefined,
  BodySchema extends z.ZodMiniType | undefined,
  AuthOption extends 'none' | Guard,
  ResultSchema extends z.ZodMiniType,
> {
  /** 'none' for public routes, or a guard from lib/auth/guard.ts. */
  auth: AuthOption
  /**
   * When the caller's session is read (one GetItem); either way an ended session gets 401003 and
   * nothing else, and causes no write and no broadcast. 'guard' (the default): before anything
   * else. 'beside': while the core runs, which saves the read's round trip where the core reads
   * first; the core's DynamoDB writes and broadcasts wait for it (lib/admission.ts), and so does
   * the answer, whatever the core or the input validation found. Only with a guard: a route
   * with `auth: 'none'` has no session, and the type refuses the option there.
   */
  sessionRead?: SessionReadOption<AuthOption>
  /**
   * A per-source-IP budget for an anonymous route that costs work (DECISIONS §7.1, §9.4), from
   * lib/http/clientLimit.ts: passed in, so that only those routes bundle the table client.
   */
  clientLimit?: ClientLimit
  /**
   * For a route whose core makes RPC calls (DECISIONS §10.4), from lib/http/rpcBudget.ts: the
   * client's RPC budget charged at the route's worst case before the core, its calls capped at
   * it, the rest refunded.
   */
  rpcBudget?: RpcBudget
  params?: ParamsSchema
  query?: QuerySchema
  body?: BodySchema
  /** The `result` shape; the core's output is parsed with it, unknown fields stripped. */
  result: ResultSchema
  run: (
    input: HandlerInput<
      Infer<ParamsSchema>,
      Infer<QuerySchema>,
      Infer<BodySchema>,
      AuthOption extends Guard ? Principal : undefined
    >,
  ) => Promise<z.input<ResultSchema>> | z.input<ResultSchema>
}

/**
 * The one way to declare an HTTP route: schemas, auth and a core function. The middy chain runs
 * in this order: access log, header normalisation, client limit, auth, JSON body (64 KB at most),
 * validation, RPC budget (with the core), core, envelope;
 * the error handler turns any failure into the error envelope. The returned handler carries the
 * definition as `route`.
 */
export function defineHandler<
  ParamsSchema extends z.ZodMiniType | undefined = undefined,
  QuerySchema extends z.ZodMiniType | undefined = undefined,
  BodySchema extends z.ZodMiniType | undefined = undefined,
  AuthOption extends 'none' | Guard = 'none',
  ResultSchema extends z.ZodMiniType = z.ZodMiniType,
>(definition: HandlerDefinition<ParamsSchema, QuerySchema, BodySchema, AuthOption, ResultSchema>) {
  // The type refuses it already; this keeps a cast or plain JavaScript from slipping one past.
  if (definition.auth === 'none' && definition.sessionRead !== undefined) {
    throw new Error("sessionRead needs a guard: a route with auth 'none' has no session to read")
  }
  const core = async (event: HttpEvent, context: HandlerContext): Promise<HttpResponse> => {
    const input = context.input ?? { params: undefined, query: undefined, body: undefined }
    const run = async () =>
      definition.run({
        ...(input as { params: never; query: never; body: never }),
        principal: context.principal as never,
        headers: event.headers ?? {},
        sourceIp: sourceIpOf(event),
      })
    const { admission } = context
    const admitted = admission ? () => whileAdmitting(admission, run) : run
    // A route on the RPC budget is charged its worst case before its core (lib/http/rpcBudget.ts);
    // the charge, a write, runs beside a session read ('beside'), not after it.
    const budget = definition.rpcBudget
    const result = budget ? await budget.spend(sourceIpOf(event), admitted) : await admitted()
    // 'beside': nothing is answered before the session is admitted (a failure waits for it in
    // the error handler).
    await admission
    // The envelope middleware wraps this; the cast carries the parsed result through middy.
    return definition.result.parse(result) as HttpResponse
  }

  const chain = middy<HttpEvent, HttpResponse, Error, HandlerContext>(core)
    .use(accessLog())
    .use(httpHeaderNormalizer())
  if (definition.clientLimit) chain.use(definition.clientLimit)
  // The token is checked before the body is parsed: an anonymous caller cannot make us parse.
  if (definition.auth !== 'none') {
    chain.use(authenticate(definition.auth, definition.sessionRead))
  }
  if (definition.body) chain.use(jsonBody())
  const handler = chain.use(validateInput(definition)).use(envelope()).use(errorHandler())
  // The definition travels with the handler so that `npm run openapi` documents the route from it.
  return Object.assign(handler, { route: definition })
}
