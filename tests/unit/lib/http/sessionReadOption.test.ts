import '../../../support/env'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as z from '../../../../schemas/zod'
import { type Guard, walletGuard } from '../../../../lib/auth/guard'
import { defineHandler, type SessionReadOption } from '../../../../lib/http/defineHandler'

// `sessionRead` says when a guarded route reads its caller's session; a route with
// `auth: 'none'` has none (issue 35). The type refuses the option there: each `@ts-expect-error`
// below fails `tsc --noEmit` (npm test) the day the type accepts it. defineHandler refuses it at
// run time too, for a definition the type checker never saw.

const result = z.object({})

describe("defineHandler's sessionRead", () => {
  it('is an option of guarded routes only, by type', () => {
    expectTypeOf<SessionReadOption<'none'>>().toEqualTypeOf<never>()
    expectTypeOf<SessionReadOption<Guard>>().toEqualTypeOf<'guard' | 'beside'>()

    // Accepted: a guard, with either mode or none.
    defineHandler({ auth: walletGuard, sessionRead: 'beside', result, run: () => ({}) })
    defineHandler({ auth: walletGuard, sessionRead: 'guard', result, run: () => ({}) })
    defineHandler({ auth: walletGuard, result, run: () => ({}) })
    defineHandler({ auth: 'none', result, run: () => ({}) })
    expect(() =>
      // @ts-expect-error sessionRead needs a guard: a public route has no session.
      defineHandler({ auth: 'none', sessionRead: 'beside', result, run: () => ({}) }),
    ).toThrow("sessionRead needs a guard: a route with auth 'none' has no session to read")
    expect(() =>
      // @ts-expect-error not even the default mode.
      defineHandler({ auth: 'none', sessionRead: 'guard', result, run: () => ({}) }),
    ).toThrow(/sessionRead needs a guard/)
  })
})
