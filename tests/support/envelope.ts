import { expect } from 'vitest'
import * as z from 'zod/mini'
import type { ApiResponse } from './apiCall'

// The two envelopes of DECISIONS §1, strict: a stray field at the top or in `error` fails.
const successEnvelopeSchema = z.strictObject({
  ok: z.literal(true),
  result: z.record(z.string(), z.unknown()),
})

const errorEnvelopeSchema = z.strictObject({
  ok: z.literal(false),
  error: z.strictObject({
    code: z.number(),
    message: z.string(),
    details: z.optional(z.array(z.strictObject({ path: z.string(), message: z.string() }))),
    requestId: z.optional(z.string()),
  }),
})

/** Any schema with `parse`: classic zod and zod/mini alike. */
interface ResultSchema<Result> {
  parse(data: unknown): Result
}

/**
 * Checks a 200 in the success envelope whose `result` is exactly what the route's result schema
 * describes (the schemas strip unknown fields, so an extra field anywhere makes the parse differ),
 * and returns the parsed result.
 */
export function okResult<Result>(response: ApiResponse, schema: ResultSchema<Result>): Result {
  const envelope = successEnvelopeSchema.safeParse(response.body)
  // Only what went wrong is shown: a success body may hold tokens or keys.
  expect(envelope.success, `not a success envelope: ${failureOf(response)}`).toBe(true)
  expect(response.status).toBe(200)
  const result = envelope.data?.result
  const parsed = schema.parse(result)
  expect(parsed).toEqual(result)
  return parsed
}

function failureOf({ status, body }: ApiResponse): string {
  const crash = (body as { errorMessage?: unknown }).errorMessage
  return `${status} ${JSON.stringify(body.error ?? crash ?? 'with an unexpected body')}`
}

/** Checks the error envelope and returns its status and code, for one `toEqual`. */
export function errorOf(response: ApiResponse): { status: number; code: number } {
  const { error } = errorEnvelopeSchema.parse(response.body)
  return { status: response.status, code: error.code }
}
