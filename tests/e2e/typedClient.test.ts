import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Middleware } from 'openapi-fetch'
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript'
import ts from 'typescript'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { projectId } from '../../lib/db/project'
import { OPENAPI_FILE } from '../../lib/openapi/openApiDocument'
import { deployment } from '../support/devnetAccounts'
import type { RunJourney } from './typedClient/journeyOptions'

// The typed-client proof (issue 13): a client generated from schemas/openapi.json alone, as an
// app team would make one, typechecks and works against the running service, and every answer
// it gets (success or error) is one the document describes for that route and status.

const TYPES_FILE = resolve('.test-output/typed-client/openapi.d.ts')
const JOURNEY_FILE = resolve('tests/e2e/typedClient/journey.ts')

type Json = Record<string, unknown>

const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json

/** The object a local `$ref` points at ('#/components/responses/NotFound'). */
function pointee(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Json)[key], document)
}

/** `node` with every local `$ref` replaced by what it points at (the document has no cycle). */
function inlined(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inlined)
  if (!node || typeof node !== 'object') return node
  const { $ref, ...rest } = node as Json
  if (typeof $ref === 'string') return inlined({ ...(pointee($ref) as Json), ...rest })
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inlined(value)]))
}

const ajv = new Ajv2020({ strict: true, allErrors: true })
addFormats(ajv)
const validators = new Map<string, ValidateFunction | undefined>()

/** ajv's check of a JSON answer to `method path` with `status`, from the document. */
function validatorFor(method: string, path: string, status: number) {
  const key = `${method} ${path} ${status}`
  if (!validators.has(key)) {
    const paths = document.paths as Record<string, Record<string, { responses: Json }>>
    const response = paths[path]?.[method.toLowerCase()]?.responses[status]
    const schema = (inlined(response) as { content?: Json } | undefined)?.content?.[
      'application/json'
    ] as { schema?: Json } | undefined
    validators.set(key, schema?.schema && ajv.compile(schema.schema))
  }
  return validators.get(key)
}

interface Answer {
  route: string
  status: number
  /** The envelope's error code, for an error. */
  code?: number
}

/** Records every answer and checks it against the document before the journey reads it. */
function documentedAnswers() {
  const answers: Answer[] = []
  const problems: string[] = []
  const middleware: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      const route = `${request.method} ${schemaPath}`
      const body = (await response.clone().json()) as { error?: { code?: number } }
      answers.push({ route, status: response.status, code: body.error?.code })
      const validate = validatorFor(request.method, schemaPath, response.status)
      if (!validate) problems.push(`${route}: ${response.status} is not documented`)
      else if (!validate(body)) {
        problems.push(`${route} ${response.status}: ${ajv.errorsText(validate.errors)}`)
      }
      return undefined
    },
  }
  return { answers, problems, middleware }
}

beforeAll(async () => {
  // Types from the committed document, as `npx openapi-typescript schemas/openapi.json` writes.
  const ast = await openapiTS(pathToFileURL(resolve(OPENAPI_FILE)))
  mkdirSync(dirname(TYPES_FILE), { recursive: true })
  writeFileSync(TYPES_FILE, COMMENT_HEADER + astToString(ast))
}, 120_000)

describe('a client generated from the OpenAPI document', () => {
  it('typechecks against the generated types, which refuse mistyped calls', () => {
    const { config } = ts.readConfigFile('tsconfig.json', (file) => ts.sys.readFile(file))
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, resolve('.'))
    const program = ts.createProgram([JOURNEY_FILE], { ...options, noEmit: true })
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file?.fileName.replace(`${resolve('.')}/`, '') ?? ''
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`
    })

    // journey.ts also holds calls the types must refuse (`// @ts-expect-error`): with types
    // that allowed them, each directive would be reported as unused.
    expect(readFileSync(JOURNEY_FILE, 'utf8').match(/@ts-expect-error/g)).toHaveLength(4)
    expect(program.getSourceFiles().map((file) => file.fileName)).toContain(TYPES_FILE)
    expect(diagnostics).toEqual([])
  }, 180_000)

  it('walks a journey through the service, every answer as the document describes it', async () => {
    const dex = deployment('ethereum')
    const { answers, problems, middleware } = documentedAnswers()
    const { runJourney } = (await import(pathToFileURL(JOURNEY_FILE).href)) as {
      runJourney: RunJourney
    }

    await runJourney({
      baseUrl: inject('apiUrl'),
      middleware,
      link: dex.token('LINK'),
      usdc: dex.usdStablecoin,
      linkProject: projectId('ethereum', dex.token('LINK')),
    })

    expect(problems).toEqual([])
    expect(answers).toEqual([
      { route: 'GET /api/v1/networks', status: 200 },
      { route: 'GET /api/v1/swap/tokens', status: 200 },
      { route: 'GET /api/v1/swap/tokens', status: 400, code: 400 },
      { route: 'GET /api/v1/wallet/mnemonic', status: 200 },
      { route: 'POST /api/v1/wallet/create', status: 200 },
      { route: 'POST /api/v1/wallet/recover/key', status: 400, code: 400 },
      { route: 'GET /api/v1/auth/nonce/{address}', status: 200 },
      { route: 'POST /api/v1/auth/login', status: 401, code: 401004 },
      { route: 'POST /api/v1/auth/login', status: 200 },
      { route: 'GET /api/v1/trades', status: 200 },
      { route: 'GET /api/v1/trades', status: 401, code: 401001 },
      { route: 'POST /api/v1/networks/wallet', status: 200 },
      { route: 'GET /api/v1/networks/wallet/balance', status: 200 },
      { route: 'POST /api/v1/watchlist/{projectId}', status: 200 },
      { route: 'GET /api/v1/watchlist/projects', status: 200 },
      { route: 'GET /api/v1/trade/id/{tradeId}', status: 404, code: 404 },
      { route: 'GET /api/v1/swap/quote/ethereum', status: 200 },
      { route: 'GET /api/v1/swap/quote/ethereum', status: 422, code: 422 },
      { route: 'POST /api/v1/prepare/transfer/tokens/ethereum', status: 200 },
      { route: 'GET /api/v1/auth/refresh', status: 200 },
      { route: 'DELETE /api/v1/auth/logout', status: 200 },
      { route: 'GET /api/v1/trades', status: 401, code: 401003 },
      { route: 'POST /api/v1/account/register', status: 200 },
      { route: 'POST /api/v1/account/register', status: 409, code: 409 },
      { route: 'POST /api/v1/account/login', status: 200 },
      { route: 'GET /api/v1/project/{projectId}', status: 200 },
      { route: 'GET /api/v1/project/{projectId}', status: 404, code: 404 },
      { route: 'GET /api/v1/price/history/daily/{projectId}', status: 200 },
      { route: 'DELETE /api/v1/account/logout', status: 200 },
    ])
  }, 180_000)
})
