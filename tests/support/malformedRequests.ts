import * as fc from 'fast-check'

// Generators of malformed requests for the bad-input sweep (tests/functions/badInput.test.ts).
// Each breaks one thing in a valid request, so the right answer is known: 400 for a value the
// schema refuses, 415 for a body that is not JSON, and so on. Values are chosen so that no reading
// of the contract accepts them (e.g. every random string holds a non-ASCII character).

/** The parts of an HTTP API request that the sweep varies. */
export interface RequestParts {
  pathParameters?: Record<string, string>
  queryStringParameters?: Record<string, string>
  headers?: Record<string, string>
  /** Serialised as JSON, with `Content-Type: application/json`. */
  body?: unknown
  /** Sent as is (malformed JSON, another media type). */
  rawBody?: string
  isBase64Encoded?: boolean
  /** Headers to leave out, e.g. the Content-Type of a JSON body. */
  omitHeaders?: string[]
}

export interface Expected {
  status: number
  /** `error.code`: the status itself unless a 401 sub-code is expected. */
  code?: number
}

export interface MalformedRequest {
  category: string
  /** What is wrong, for a failure report: never a working token or key. */
  broken: string
  request: RequestParts
  expected: Expected
  /** Values that must not come back in the response (keys, phrases, passwords). */
  secrets: string[]
  /**
   * The input a 400 must name in its details (`body.amount`, `query.limit`, `params.key`, or
   * `body` for an unknown field): a detail's path is it or under it.
   */
  field?: string
  /** What a 400 from a check made in code (no details) must say in its message. */
  says?: RegExp
}

export const BAD_REQUEST: Expected = { status: 400 }
export const NOT_FOUND: Expected = { status: 404 }
export const UNSUPPORTED_MEDIA_TYPE: Expected = { status: 415 }

/** A short, printable description of a value (huge strings are cut). */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 60)}… (${text.length} chars)` : text
}

/** DECISIONS §7.1: a body over 64 KB is refused (413) before anything in it is looked at. */
const MAX_BODY_BYTES = 64 * 1024
const PAYLOAD_TOO_LARGE: Expected = { status: 413 }

function bodyBytes(request: RequestParts): number {
  const text = request.rawBody ?? (request.body === undefined ? '' : JSON.stringify(request.body))
  return Buffer.byteLength(text ?? '', 'utf8')
}

export function malformed(
  category: string,
  broken: string,
  request: RequestParts,
  expected: Expected,
  secrets: string[] = [],
  field?: string,
): MalformedRequest {
  // A refusal that depends on a body's content becomes 413 once the body is too large to read;
  // a 401 (token checked first) or 415 is decided before the size.
  const oversized = expected.status === 400 && bodyBytes(request) > MAX_BODY_BYTES
  return {
    category,
    broken,
    request,
    expected: oversized ? PAYLOAD_TOO_LARGE : expected,
    secrets,
    ...(field !== undefined && { field }),
    // fast-check prints a counterexample with this: the category and the broken part only, so a
    // failure report never carries the valid token or key the request was built from.
    [fc.toStringMethod]: () => `${category}: ${broken}`,
  } as MalformedRequest
}

// Strings.

const HEX = [...'0123456789abcdefABCDEF']
const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']

export function hexString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...HEX), minLength, maxLength })
}

export function base64UrlString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...BASE64URL), minLength, maxLength })
}

/** Random strings of any code points, each with at least one outside ASCII. */
export const nonAscii = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 40 })
  .filter((value) => /[^\x00-\x7f]/.test(value))

/** Strings that trip naive handling: lone surrogates, NUL, direction marks, other digits. */
export const oddUnicode = fc.constantFrom(
  '\ud800',
  'a\udfffb',
  '\u0000',
  '\u202eabc',
  '\u200b',
  'e\u0301',
  '🦊',
  '١٢٣',
  '１２',
  'ﬁ',
  '\ufeff1',
  '𝟏𝟐',
)

/** 5k to 120k characters. */
export const hugeString = fc
  .tuple(
    fc.constantFrom('a', '0', 'f', 'é', '🦊', 'ab1', ' '),
    fc.integer({ min: 5_000, max: 40_000 }),
  )
  .map(([unit, count]) => unit.repeat(count))

/** Strings no format-checked field accepts (addresses, ids, hex, amounts, enums). */
export const junkString = fc.oneof(nonAscii, oddUnicode, hugeString, fc.constant(''))

// JSON values of the wrong type.

const jsonScalar = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 10 }),
)

export type JsonKind = 'string' | 'number' | 'array'

/** A JSON value that is not of `kind`. */
export function wrongType(kind: JsonKind): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [
    fc.boolean(),
    fc.constant(null),
    fc.dictionary(fc.string({ maxLength: 8 }), jsonScalar, { maxKeys: 4 }),
  ]
  if (kind !== 'string') options.push(fc.string({ maxLength: 20 }))
  if (kind !== 'number')
    options.push(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
  if (kind !== 'array') options.push(fc.array(jsonScalar, { maxLength: 5 }))
  return fc.oneof(...options)
}

// Headers no schema covers.

/** Not 1 to 255 visible ASCII characters. */
export const badIdempotencyKey = fc.oneof(
  fc.constantFrom('', ' ', 'a b', 'tab\there', 'new\nline', 'del\u007f'),
  fc.string({ unit: fc.constantFrom(...'abc-_:'), minLength: 256, maxLength: 400 }),
  nonAscii,
  oddUnicode,
  hugeString,
)

// Requests built from a valid one by breaking one part.

export interface FieldRule {
  bad: fc.Arbitrary<unknown>
  /** Leaving the field out is refused too. */
  required?: boolean
}

function omitKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => name !== key))
}

/** A field name the schema does not know, including ones that would pollute a prototype. */
function unknownField(fields: Record<string, unknown>): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'key', 'privateKey', 'isAdmin'),
      fc.string({ minLength: 1, maxLength: 20 }),
      nonAscii,
    )
    .filter((name) => !Object.hasOwn(fields, name))
}

/** Malformed JSON: cut short, with a stray character, or not JSON at all. */
function malformedJson(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: 0, max: valid.length - 1 }).map((length) => valid.slice(0, length)),
    fc.constantFrom(',', '}', 'x', ']', '"').map((stray) => `${valid}${stray}`),
    fc.constantFrom(
      "{'a': '1'}",
      '{a: 1}',
      '{"a":1,}',
      '[1,]',
      'NaN',
      'undefined',
      '{"a":01}',
      '{"a":"\\x41"}',
      '{}}',
      '{"a":1}{"b":2}',
      '\u0000',
      '\ufeff{}',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((text) => !isJson(text)),
  )
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

const NOT_JSON_MEDIA_TYPES = [
  'text/plain',
  'text/json',
  'text/html; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonp',
  'application/json-patch',
  'application/octet-stream',
  '*/*',
  '',
]

export interface BodyOptions {
  /** Field names whose values must not come back in a response. */
  secretFields?: string[]
  /** Unknown fields are refused (a strict schema, the default); otherwise they are ignored. */
  strict?: boolean
}

/** Requests whose JSON body breaks one rule of `fields`, or is not a JSON object at all. */
export function bodyBreakers(
  valid: RequestParts,
  fields: Record<string, FieldRule>,
  options: BodyOptions = {},
): fc.Arbitrary<MalformedRequest>[] {
  const body = valid.body as Record<string, unknown>
  const text = JSON.stringify(body)
  const secretsOf = (value: Record<string, unknown>) =>
    (options.secretFields ?? []).flatMap((name) => {
      const secret = value[name]
      return typeof secret === 'string' && secret.length >= 8 ? [secret] : []
    })
  const withBody = (next: unknown): RequestParts => ({ ...valid, body: next, rawBody: undefined })
  const names = Object.keys(fields)
  const required = names.filter((name) => fields[name]?.required)
  const breakers = [
    fc
      .constantFrom(...names)
      .chain((name) => (fields[name] as FieldRule).bad.map((value) => ({ name, value })))
      .map(({ name, value }) => {
        const next = { ...body, [name]: value }
        return malformed(
          'body field',
          `body.${name} = ${describeValue(value)}`,
          withBody(next),
          BAD_REQUEST,
          secretsOf(next),
          `body.${name}`,
        )
      }),
    fc
      .oneof(
        fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
        fc.string({ maxLength: 30 }),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
      )
      .map((value) =>
        malformed('not an object', `body = ${describeValue(value)}`, withBody(value), BAD_REQUEST),
      ),
    // Its own kind: a body of optional fields must not take `null` for `{}`.
    fc.constant(malformed('not an object', 'body = null', withBody(null), BAD_REQUEST)),
    malformedJson(text).map((raw) =>
      malformed(
        'malformed JSON',
        `body text ${describeValue(raw)}`,
        { ...valid, rawBody: raw },
        BAD_REQUEST,
        secretsOf(body),
      ),
    ),
    fc
      .constantFrom('absent', 'empty')
      .map((kind) =>
        malformed(
          'no body',
          `body ${kind}`,
          kind === 'absent'
            ? { ...valid, body: undefined }
            : { ...valid, body: undefined, rawBody: '' },
          BAD_REQUEST,
        ),
      ),
    fc
      .option(fc.constantFrom(...NOT_JSON_MEDIA_TYPES), { nil: undefined })
      .map((mediaType) =>
        malformed(
          'wrong content type',
          mediaType === undefined ? 'no Content-Type' : `Content-Type ${describeValue(mediaType)}`,
          mediaType === undefined
            ? { ...valid, omitHeaders: ['content-type'] }
            : { ...valid, headers: { ...valid.headers, 'content-type': mediaType } },
          UNSUPPORTED_MEDIA_TYPE,
          secretsOf(body),
        ),
      ),
    malformedJson(text).map((raw) =>
      malformed(
        'malformed JSON',
        `base64 body of ${describeValue(raw)}`,
        { ...valid, rawBody: Buffer.from(raw).toString('base64'), isBase64Encoded: true },
        BAD_REQUEST,
        secretsOf(body),
      ),
    ),
  ]
  if (options.strict ?? true) {
    breakers.push(
      fc.tuple(unknownField(fields), fc.jsonValue({ maxDepth: 2 })).map(([name, value]) =>
        malformed(
          'unknown field',
          `body.${describeValue(name)} added`,
          // A computed key, so `__proto__` becomes an own property as JSON.parse makes it.
          withBody({ ...body, [name]: value }),
          BAD_REQUEST,
          secretsOf(body),
          'body',
        ),
      ),
    )
  }
  if (required.length > 0) {
    breakers.push(
      fc
        .constantFrom(...required)
        .map((name) =>
          malformed(
            'missing field',
            `body.${name} left out`,
            withBody(omitKey(body, name)),
            BAD_REQUEST,
            secretsOf(body),
            `body.${name}`,
          ),
        ),
    )
  }
  return breakers
}

export interface QueryOptions {
  /** Unknown parameters are refused (a strict schema); otherwise they are ignored. */
  strict: boolean
}

/** Requests whose query string breaks one rule of `fields`. */
export function queryBreakers(
  valid: RequestParts,
  fields: Record<string, FieldRule>,
  options: QueryOptions,
): fc.Arbitrary<MalformedRequest>[] {
  const query = valid.queryStringParameters ?? {}
  const names = Object.keys(fields)
  const required = names.filter((name) => fields[name]?.required)
  const withQuery = (next: Record<string, string>): RequestParts => ({
    ...valid,
    queryStringParameters: next,
  })
  const breakers = [
    fc
      .constantFrom(...names)
      .chain((name) => (fields[name] as FieldRule).bad.map((value) => ({ name, value })))
      .map(({ name, value }) =>
        malformed(
          'query parameter',
          `${name}=${describeValue(value)}`,
          withQuery({ ...query, [name]: String(value) }),
          BAD_REQUEST,
          [],
          `query.${name}`,
        ),
      ),
    // API Gateway joins a repeated parameter with commas.
    fc
      .constantFrom(...names.filter((name) => query[name] !== undefined))
      .map((name) =>
        malformed(
          'repeated parameter',
          `${name} given twice`,
          withQuery({ ...query, [name]: `${query[name]},${query[name]}` }),
          BAD_REQUEST,
          [],
          `query.${name}`,
        ),
      ),
  ]
  if (required.length > 0) {
    breakers.push(
      fc
        .constantFrom(...required)
        .map((name) =>
          malformed(
            'missing parameter',
            `${name} left out`,
            withQuery(omitKey(query, name)),
            BAD_REQUEST,
            [],
            `query.${name}`,
          ),
        ),
    )
  }
  if (options.strict) {
    breakers.push(
      fc
        .tuple(unknownField(fields), fc.string({ maxLength: 20 }))
        .map(([name, value]) =>
          malformed(
            'unknown parameter',
            `${describeValue(name)} added`,
            withQuery({ ...query, [name]: value }),
            BAD_REQUEST,
            [],
            'query',
          ),
        ),
    )
  }
  return breakers
}

/** Requests whose path parameter `name` is malformed, or whose path parameters are missing. */
export function pathBreakers(
  valid: RequestParts,
  name: string,
  bad: fc.Arbitrary<string>,
  options: { secret?: boolean } = {},
): fc.Arbitrary<MalformedRequest>[] {
  return [
    bad.map((value) =>
      malformed(
        'path parameter',
        options.secret
          ? `{${name}} malformed (${value.length} chars)`
          : `{${name}} = ${describeValue(value)}`,
        { ...valid, pathParameters: { ...valid.pathParameters, [name]: value } },
        BAD_REQUEST,
        options.secret && value.length >= 8 ? [value] : [],
        `params.${name}`,
      ),
    ),
    fc.constant(
      malformed(
        'path parameter',
        'no path parameters',
        { ...valid, pathParameters: undefined },
        BAD_REQUEST,
        [],
        'params',
      ),
    ),
  ]
}
