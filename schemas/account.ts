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

// DECISIONS §10.4: opaque to the client; the bound is only the body's (a token is 80 characters).
const DEVICE_TOKEN_MAX_CHARS = 256

export const deviceTokenSchema = documented(
  z.string().check(z.maxLength(DEVICE_TOKEN_MAX_CHARS, 'must be at most 256 characters')),
  {
    description:
      "The `device` of an earlier login with this username (valid 90 days): the login is then held only by its own client's budget. One that is not valid for this username is ignored.",
  },
)

// Login checks only the bounds, so a stricter password rule later does not lock out older accounts.
export const loginBodySchema = z.strictObject({
  username: usernameSchema,
  password: z
    .string()
    .check(z.minLength(1, 'is required'), z.maxLength(128, 'must be at most 128 characters')),
  device: z.optional(deviceTokenSchema),
})

export const accountTokenResultSchema = z.object({
  token: sessionTokensSchema,
})

/** A login's answer: the session's tokens and a device token to send with the next login. */
export const accountLoginResultSchema = z.object({
  token: sessionTokensSchema,
  // Opaque: URL-safe characters and dots, as the service writes it (lib/auth/deviceToken.ts).
  device: z.string().check(z.regex(/^[A-Za-z0-9._-]{1,256}$/), z.maxLength(DEVICE_TOKEN_MAX_CHARS)),
})

export type AccountCredentialsBody = z.infer<typeof accountCredentialsBodySchema>
export type LoginBody = z.infer<typeof loginBodySchema>
export type AccountTokenResult = z.infer<typeof accountTokenResultSchema>
export type AccountLoginResult = z.infer<typeof accountLoginResultSchema>
