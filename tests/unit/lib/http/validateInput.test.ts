import '../../../support/env'
import { describe, expect, it } from 'vitest'
import type { HttpEvent, HttpRequest } from '../../../../lib/http/types'
import { type InputSchemas, validateInput } from '../../../../lib/http/validateInput'
import { attachNetworksBodySchema } from '../../../../schemas/networks'
import { listTradesQuerySchema } from '../../../../schemas/trade'
import { httpEvent, lambdaContext } from '../../../support/httpEvent'

/** Runs the middleware alone on `event` and returns the parsed input it leaves for the core. */
async function validate(schemas: InputSchemas, event: HttpEvent) {
  const request: HttpRequest = {
    event,
    context: lambdaContext(),
    response: null,
    error: null,
    internal: {},
  }
  await validateInput(schemas).before?.(request)
  return request.context.input
}

describe('validateInput', () => {
  it('refuses a JSON null body, even where every field of the body is optional', async () => {
    const event = httpEvent({ route: 'attachWalletNetworks', rawBody: 'null' })
    // What the JSON body middleware leaves for `null`.
    Object.assign(event, { body: null })

    await expect(validate({ body: attachNetworksBodySchema }, event)).rejects.toMatchObject({
      status: 400,
      details: [{ path: 'body', message: expect.any(String) }],
    })
  })

  it('takes absent path and query parameters as empty, so their defaults apply', async () => {
    const event = httpEvent({ route: 'listTrades' })

    expect(event.queryStringParameters).toBeUndefined()
    expect(await validate({ query: listTradesQuerySchema }, event)).toEqual({
      params: undefined,
      query: { limit: 10, offset: 0, sort: 'createdAt', direction: 'DESC' },
      body: undefined,
    })
  })
})
