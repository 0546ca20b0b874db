import { documented } from './formats'
import { sessionTokensSchema } from './session'
import * as z from './zod'

// Messages name the rule, never the value: a password must not reach an error body.
export const usernameSchema = documented(
  z
    .string()
    .check(
      z.regex(/^[A-Za-z0-9_.-]{3,32}$/, 'must be 3 to 32 of the characters A-Z a-z 0-9 _ . -'),
    ),
  { maxLength: 32 },
)

export const passwordSchema = z
  .string()
  .check(
    z.minLength(8, 'must be at least 8 characters'),
    z.maxLength(128, 'must be at most 128 characters'),
  )

export const accountCredentialsBodySchema = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
})

// Login checks only the bounds, so a stricter password rule later does not lock out older accounts.
export const loginBodySchema = z.strictObject({
  username: usernameSchema,
  password: z
    .string()
    .check(z.minLength(1, 'is required'), z.maxLength(128, 'must be at most 128 characters')),
})

export const accountTokenResultSchema = z.object({
  token: sessionTokensSchema,
})

export type AccountCredentialsBody = z.infer<typeof accountCredentialsBodySchema>
export type LoginBody = z.infer<typeof loginBodySchema>
export type AccountTokenResult = z.infer<typeof accountTokenResultSchema>
