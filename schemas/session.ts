import { MAX_TOKEN_CHARS } from './limits'
import * as z from './zod'

// Shapes every session route shares; kept apart from schemas/auth.ts so account routes carry no viem.

/** A compact JWS: header, payload and signature in base64url. */
const jwtString = z
  .string()
  .check(z.maxLength(MAX_TOKEN_CHARS), z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/))

export const sessionTokensSchema = z.object({ access: jwtString, refresh: jwtString })
export type SessionTokensResult = z.infer<typeof sessionTokensSchema>

export const emptyResultSchema = z.object({})
export type EmptyResult = z.infer<typeof emptyResultSchema>
