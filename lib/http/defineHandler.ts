import middy from '@middy/core'
import httpHeaderNormalizer from '@middy/http-header-normalizer'
import type * as z from '../../schemas/zod'
import type { MiddlewareObj } from '@middy/core'
import { AppError, UNAUTHORIZED, Unauthorized } from '../errors'
import { accessLog } from './accessLog'
import { authenticate } from './authenticate'
import { envelope } from './envelope'
import { errorHandler } from './errorHandler'
import { jsonBody } from './jsonBody'
import type { SessionGate } from './types'
import type { Guard, HandlerContext, HttpEvent, HttpResponse, Principal } from './types'
import { validateInput } from './validateInput'

/**
 * Whether an ended session must answer before `error`: a refusal of the request or an unexpected
 * failure, yes; the session's own 401003, or an outage (503, 502), which the session read would
 * only wait on again, no.
 */
const sessionAnswersFirst = (error: unknown) =>
  !(
    error instanceof AppError &&
    (error.status >= 500 ||
      (error instanceof Unauthorized && error.code === UNAUTHORIZED.sessionEnded))
  )

type Infer<Schema> = Schema extends z.ZodMiniType ? z.infer<Schema> : undefined

export interface HandlerInput<Params, Query, Body, Auth, Gate = SessionGate | undefined> {
  params: Params
  query: Query
  body: Body
  principal: Auth
  headers: Record<string, string | undefined>
  /**
   * With `sessionRead: 'route'` or `'beside'` (and only then, by type): the caller's session,
   * to check with the route's own DynamoDB work (see SessionGate in lib/http/types.ts).
   */
  session: Gate
}

export interface HandlerDefinition<
  ParamsSchema extends z.ZodMiniType | undefined,
  QuerySchema extends z.ZodMiniType | undefined,
  BodySchema extends z.ZodMiniType | undefined,
  AuthOption extends 'none' | Guard,
  ResultSchema extends z.ZodMiniType,
  SessionRead extends 'guard' | 'route' | 'beside' = 'guard',
> {
  /** 'none' for public routes, or a guard from lib/http/authGuard.ts. */
  auth: AuthOption
  /**
   * 'guard' (the default): the guard reads the session (one GetItem) before the core runs.
   * Otherwise the core gets a session gate and the session is checked with the route's own
   * DynamoDB work, one sequential round trip fewer. 'route': in the same request (a key in its
   * BatchGetItem, a ConditionCheck in its transaction, its conditional write). 'beside': the
   * gate's GetItem starts before the core and the answer waits for it; a core that writes or
   * sends awaits `session.check()` (the same read) before anything irreversible. An ended
   * session answers 401003 whatever the core found, but after input validation.
   */
  sessionRead?: SessionRead
  /**
   * A per-source-IP budget for an anonymous route that costs work (DECISIONS §7.1), from
   * lib/http/clientLimit.ts: passed in, so that only those routes bundle the table client.
   */
  clientLimit?: MiddlewareObj<HttpEvent, HttpResponse>
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
      AuthOption extends Guard ? Principal : undefined,
      SessionRead extends 'route' | 'beside' ? SessionGate : undefined
    >,
  ) => Promise<z.input<ResultSchema>> | z.input<ResultSchema>
}

/**
 * The one way to declare an HTTP route: schemas, auth and a core function. The middy chain runs
 * in this order: access log, header normalisation, client limit, auth, JSON body (64 KB at most),
 * validation, core, envelope;
 * the error handler turns any failure into the error envelope. The returned handler carries the
 * definition as `route`.
 */
export function defineHandler<
  ParamsSchema extends z.ZodMiniType | undefined = undefined,
  QuerySchema extends z.ZodMiniType | undefined = undefined,
  BodySchema extends z.ZodMiniType | undefined = undefined,
  AuthOption extends 'none' | Guard = 'none',
  ResultSchema extends z.ZodMiniType = z.ZodMiniType,
  SessionRead extends 'guard' | 'route' | 'beside' = 'guard',
>(
  definition: HandlerDefinition<
    ParamsSchema,
    QuerySchema,
    BodySchema,
    AuthOption,
    ResultSchema,
    SessionRead
  >,
) {
  const core = async (event: HttpEvent, context: HandlerContext): Promise<HttpResponse> => {
    const input = context.input ?? { params: undefined, query: undefined, body: undefined }
    const running = Promise.resolve().then(() =>
      definition.run({
        ...(input as { params: never; query: never; body: never }),
        principal: context.principal as never,
        headers: event.headers ?? {},
        session: context.sessionGate as never,
      }),
    )
    // 'beside': the session check and the core ran together; an ended session wins over
    // whatever the core answered, and nothing is answered before the check passed.
    const gate = context.sessionGate
    const check = definition.sessionRead === 'beside' ? gate?.check() : undefined
    const [checked, ran] = await Promise.allSettled([check, running])
    if (checked.status === 'rejected') throw checked.reason
    if (ran.status === 'rejected') {
      // A route that failed before its session was admitted (a refusal of its input, a key that
      // is not the wallet's) answers 401003 first if the session ended, as if the guard had read
      // it: one GetItem, on this path only.
      if (gate && !gate.admitted && sessionAnswersFirst(ran.reason)) await gate.check()
      throw ran.reason
    }
    const result = ran.value
    if (context.sessionGate && !context.sessionGate.admitted) {
      throw new Error('the route answered without admitting its session')
    }
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
