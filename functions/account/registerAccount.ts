import { randomUUID } from 'node:crypto'
import { hashPassword } from '../../lib/auth/password'
import { createAccount } from '../../lib/db/account'
import { clientLimit } from '../../lib/http/clientLimit'
import { defineHandler } from '../../lib/http/defineHandler'
import { Conflict } from '../../lib/errors'
import { type AccountCredentialsBody, accountCredentialsBodySchema } from '../../schemas/account'
import { type EmptyResult, emptyResultSchema } from '../../schemas/session'

export async function registerAccount({
  username,
  password,
}: AccountCredentialsBody): Promise<EmptyResult> {
  const passwordHash = await hashPassword(password)
  const created = await createAccount({
    accountId: randomUUID(),
    username,
    passwordHash,
    createdAt: new Date().toISOString(),
  })
  if (!created) throw new Conflict('this username is already registered')
  return {}
}

export const handler = defineHandler({
  auth: 'none',
  clientLimit: clientLimit('register'),
  body: accountCredentialsBodySchema,
  result: emptyResultSchema,
  run: ({ body }) => registerAccount(body),
})
