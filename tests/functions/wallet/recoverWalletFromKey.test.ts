import '../../support/env'
import { describe, expect, it } from 'vitest'
import { handler } from '../../../functions/wallet/recoverWalletFromKey'
import { httpEvent, invoke } from '../../support/httpEvent'

const ROUTE = 'POST /api/v1/wallet/recover/key'
// Anvil account 0.
const KEY_HEX = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const ORDER_HEX = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'
const FORMAT = 'a private key is 64 hex digits, with or without 0x'
const RANGE = 'the private key is not a valid secp256k1 key (it must be 1..n-1)'

function recover(body: unknown) {
  return invoke(handler, httpEvent({ routeKey: ROUTE, body }))
}

describe('POST /v1/wallet/recover/key', () => {
  it.each([
    ['with 0x', `0x${KEY_HEX}`],
    ['without 0x', KEY_HEX],
    ['in upper case', `0x${KEY_HEX.toUpperCase()}`],
    ['in upper case without 0x', KEY_HEX.toUpperCase()],
  ])(
    'answers the checksummed address and the lower-case 0x key for a key %s',
    async (_case, key) => {
      const response = await recover({ privateKey: key })

      expect(response).toEqual({
        status: 200,
        body: { ok: true, result: { address: ADDRESS, privateKey: `0x${KEY_HEX}` } },
      })
    },
  )

  it.each([
    ['63 digits', KEY_HEX.slice(1), FORMAT],
    ['65 digits', `0x${KEY_HEX}a`, FORMAT],
    ['a non-hex digit', `0x${KEY_HEX.slice(0, 40)}z${KEY_HEX.slice(41)}`, FORMAT],
    ['an empty key', '', FORMAT],
    ['the zero key', `0x${'0'.repeat(64)}`, RANGE],
    ['the curve order n', `0x${ORDER_HEX}`, RANGE],
    ['a key above n', `0x${'f'.repeat(64)}`, RANGE],
  ])('answers 400 for %s without quoting the key', async (_case, key, message) => {
    const response = await recover({ privateKey: key })

    expect(response).toEqual({ status: 400, body: { ok: false, error: { code: 400, message } } })
    if (key !== '') expect(JSON.stringify(response.body)).not.toContain(key.replace(/^0x/, ''))
  })

  it.each([
    ['a mnemonic', { privateKey: `0x${KEY_HEX}`, mnemonic: 'extra' }],
    ['the key as a field name', { [`0x${KEY_HEX}`]: '', privateKey: '' }],
  ])('answers 400 for a field the route does not know: %s', async (_case, body) => {
    const response = await recover(body)

    expect(response).toEqual({
      status: 400,
      body: {
        ok: false,
        error: {
          code: 400,
          message: 'the request is not valid',
          details: [{ path: 'body', message: 'the body takes only privateKey' }],
        },
      },
    })
    expect(JSON.stringify(response.body)).not.toContain(KEY_HEX)
  })

  it('answers 400 for a missing or non-string key', async () => {
    const missing = await recover({})
    const numeric = await recover({ privateKey: 42 })

    for (const response of [missing, numeric]) {
      expect(response).toEqual({
        status: 400,
        body: {
          ok: false,
          error: {
            code: 400,
            message: 'the request is not valid',
            details: [{ path: 'body.privateKey', message: expect.any(String) }],
          },
        },
      })
    }
  })

  it('answers 400 for malformed JSON, without quoting it', async () => {
    const event = httpEvent({ routeKey: ROUTE, rawBody: `{"privateKey": "0x${KEY_HEX}"` })

    const response = await invoke(handler, event)

    expect(response).toEqual({
      status: 400,
      body: { ok: false, error: { code: 400, message: 'the body is not valid JSON' } },
    })
    expect(JSON.stringify(response.body)).not.toContain(KEY_HEX)
  })
})
