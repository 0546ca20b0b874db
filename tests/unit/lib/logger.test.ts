import '../../support/env'
import { describe, expect, it } from 'vitest'
import { logger, redact } from '../../../lib/logger'
import { captureLogs } from '../../support/captureLogs'

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIweGYzOWYiLCJzaWQiOiJhYmMifQ.c2lnbmF0dXJlLWJ5dGVz'
const PRIVATE_KEY_HEX = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const PRIVATE_KEY = `0x${PRIVATE_KEY_HEX}`
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const MNEMONIC = 'test test test test test test test test test test test junk'
const REDACTED = '[redacted]'

describe('redact', () => {
  it('masks a JWT inside a string', () => {
    expect(redact(`Authorization: Bearer ${JWT} (from the app)`)).toBe(
      `Authorization: Bearer ${REDACTED} (from the app)`,
    )
  })

  it('masks a 64-hex private key with and without 0x', () => {
    expect(redact(`signing with ${PRIVATE_KEY}`)).toBe(`signing with ${REDACTED}`)
    expect(redact(`signing with ${PRIVATE_KEY_HEX}.`)).toBe(`signing with ${REDACTED}.`)
    expect(redact(`GET /api/v1/swap/native/altchain/${PRIVATE_KEY}`)).toBe(
      `GET /api/v1/swap/native/altchain/${REDACTED}`,
    )
  })

  it('masks a mnemonic-shaped phrase inside free text', () => {
    const phrase =
      'abandon ability able about above absent absorb abstract absurd abuse access accident'

    // Ordinary words next to the phrase may be masked with it: over-masking is the safe side.
    const masked = String(redact(`could not derive from ${phrase} at index 3`))

    expect(masked).toContain(REDACTED)
    expect(masked).not.toMatch(/abandon|accident|absurd/)
    expect(masked).toContain('at index 3')
    expect(redact(`words: ${MNEMONIC}`)).toBe(`words: ${REDACTED}`)
  })

  it('keeps token addresses and ids that only share a word with secrets', () => {
    const entry = { tokenAddress: ADDRESS, tokenId: 'e2b1', routeKey: 'GET /api/v1/swap/tokens' }

    expect(redact(entry)).toEqual(entry)
  })

  it('masks values under secret-looking keys, whatever they hold', () => {
    const entry = {
      password: 'hunter2hunter2',
      privateKey: PRIVATE_KEY,
      mnemonic: MNEMONIC,
      seedPhrase: MNEMONIC,
      authorization: `Bearer ${JWT}`,
      Authorization: 'Basic dXNlcjpwYXNz',
      refreshToken: 'opaque-refresh',
      accessToken: 42,
      jwtSecret: { nested: 'anything' },
      signature: '0x1234',
      key: PRIVATE_KEY_HEX,
    }

    expect(redact(entry)).toEqual(
      Object.fromEntries(Object.keys(entry).map((key) => [key, REDACTED])),
    )
  })

  it('masks secrets in nested objects and arrays', () => {
    const entry = {
      request: {
        headers: { authorization: `Bearer ${JWT}`, 'user-agent': 'vitest' },
        body: { wallets: [{ address: ADDRESS, privateKey: PRIVATE_KEY }] },
      },
      notes: [`token ${JWT}`, ['deeper', `key ${PRIVATE_KEY_HEX}`]],
    }

    expect(redact(entry)).toEqual({
      request: {
        headers: { authorization: REDACTED, 'user-agent': 'vitest' },
        body: { wallets: [{ address: ADDRESS, privateKey: REDACTED }] },
      },
      notes: [`token ${REDACTED}`, ['deeper', `key ${REDACTED}`]],
    })
  })

  it('masks secret keys however deep they are nested', () => {
    let entry: Record<string, unknown> = { password: 'hunter2hunter2', privateKey: PRIVATE_KEY }
    for (let level = 0; level < 12; level += 1) entry = { level: entry }

    const text = JSON.stringify(redact(entry))

    expect(text).not.toContain('hunter2')
    expect(text).not.toContain(PRIVATE_KEY_HEX)
    expect(text).toContain('[truncated]')
  })

  it('keeps only the masked message and name of an Error, never its stack', () => {
    const error = new Error(`could not sign with ${PRIVATE_KEY} for ${JWT}`)

    const redacted = redact(error)

    expect(redacted).toEqual({
      name: 'Error',
      message: `could not sign with ${REDACTED} for ${REDACTED}`,
    })
  })

  it('masks URLs, which carry RPC provider keys', () => {
    const message =
      'HTTP request failed.\nURL: https://eth-mainnet.example/v2/SECRETKEY123?x=1\nRequest body: {}'

    const text = String(redact(message))

    expect(text).not.toContain('SECRETKEY123')
    expect(text).toContain('URL: [url]')
  })

  it.each([
    ['0x, lower case', PRIVATE_KEY],
    ['0x, upper-case digits', `0x${PRIVATE_KEY_HEX.toUpperCase()}`],
    ['0X prefix', `0X${PRIVATE_KEY_HEX}`],
    ['no prefix', PRIVATE_KEY_HEX],
    ['percent-encoded', [...PRIVATE_KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
    ['percent-encoded prefix only', `%30%78${PRIVATE_KEY_HEX}`],
  ])('masks a private key written %s, in a path', (_, spelling) => {
    const text = String(redact(`POST /api/v1/transfer/tokens/ethereum/${spelling}`))

    expect(text.toLowerCase()).not.toContain(PRIVATE_KEY_HEX.slice(0, 16))
    expect(text).toContain(REDACTED)
  })

  it('leaves ordinary data intact', () => {
    const entry = {
      requestId: 'c0a8012e-7f3b-4c1e-9d5a-2b6f8e4d1a90',
      routeKey: 'GET /api/v1/networks/wallet/balance',
      address: ADDRESS,
      addresses: [ADDRESS.toLowerCase(), '0x0000000000000000000000000000000000000000'],
      status: 200,
      durationMs: 12.5,
      ok: true,
      missing: null,
      nothing: undefined,
      message: 'request',
    }

    expect(redact(entry)).toEqual(entry)
    expect(redact(42)).toBe(42)
    expect(redact(undefined)).toBeUndefined()
  })
})

describe('logger', () => {
  const logs = captureLogs('INFO')

  it('writes no JWT or private key when logging an object that holds them', () => {
    logger.info('login attempt', {
      routeKey: 'POST /api/v1/auth/login',
      headers: { authorization: `Bearer ${JWT}` },
      note: `retrying with ${JWT}`,
      wallet: { address: ADDRESS, privateKey: PRIVATE_KEY, backup: PRIVATE_KEY_HEX },
    })

    const output = logs.text()
    expect(JSON.parse(output)).toMatchObject({
      level: 'INFO',
      message: 'login attempt',
      routeKey: 'POST /api/v1/auth/login',
      wallet: { address: ADDRESS },
    })
    expect(output).not.toContain(JWT)
    expect(output).not.toContain(PRIVATE_KEY_HEX)
  })

  it('writes no secret carried by a message or an Error', () => {
    logger.error(`could not refresh ${JWT}`, new Error(`bad key ${PRIVATE_KEY}`))

    const output = logs.text()
    expect(JSON.parse(output)).toMatchObject({
      level: 'ERROR',
      message: `could not refresh ${REDACTED}`,
      error: { name: 'Error', message: `bad key ${REDACTED}` },
    })
    expect(output).not.toContain(JWT)
    expect(output).not.toContain(PRIVATE_KEY_HEX)
  })
})
