import '../../support/env'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { handler as getNonce } from '../../../functions/auth/getNonce'
import { MAX_BODY_BYTES } from '../../../lib/http/jsonBody'
import { httpEvent, invoke } from '../../support/httpEvent'
import { bearer } from '../../support/marketFixtures'
import { demoToken } from '../../support/tradeFixtures'
import { signInWithWallet } from '../../support/walletSignIn'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const swapTokensEthereum = networkRoute('swapTokens', 'ethereum')
const transferEthereum = networkRoute('transfer', 'ethereum')

// DECISIONS §7.1 (bodies) and §7.2 (addresses), replayed as an attacker sent them.

const SWAP_ROUTE = 'POST /api/v1/swap/tokens/ethereum/{key}'
const TRANSFER_ROUTE = 'POST /api/v1/transfer/tokens/ethereum/{key}'

/** About 9 MB of nested JSON: costly to parse, and never parsed for an anonymous caller. */
const NESTED = `${'{"a":['.repeat(200_000)}1${']}'.repeat(200_000)}`.padEnd(9_000_000, ' ')

let caller: { privateKey: `0x${string}`; access: string }

beforeAll(async () => {
  const privateKey = generatePrivateKey()
  const { access } = await signInWithWallet(privateKey)
  caller = { privateKey, access }
})

afterEach(() => {
  vi.restoreAllMocks()
})

function swap(rawBody: string, headers: Record<string, string> = {}) {
  return invoke(
    swapTokensEthereum,
    httpEvent({
      routeKey: SWAP_ROUTE,
      pathParameters: { key: caller.privateKey },
      headers,
      rawBody,
    }),
  )
}

describe('bodies (DECISIONS §7.1)', () => {
  it('answers 401 to a 9 MB body without a token, without parsing it', async () => {
    const parse = vi.spyOn(JSON, 'parse')

    const response = await swap(NESTED)

    expect(response.status).toBe(401)
    // The only parse is the test's own reading of the small response envelope.
    expect(parse.mock.calls.filter(([text]) => String(text).length > 1_000)).toHaveLength(0)
  })

  it('answers 413 to a 9 MB body with a valid token, without parsing it', async () => {
    const parse = vi.spyOn(JSON, 'parse')

    const response = await swap(NESTED, bearer(caller.access))

    expect(response).toEqual({
      status: 413,
      body: { ok: false, error: { code: 413, message: 'the body is larger than 64 KB' } },
    })
    expect(parse.mock.calls.filter(([text]) => String(text).length > 1_000)).toHaveLength(0)
  })

  it('answers 413 to a body one byte over 64 KB, and measures a base64 body decoded', async () => {
    const over = JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES) }).slice(0, MAX_BODY_BYTES + 1)
    expect((await swap(over, bearer(caller.access))).status).toBe(413)

    const small = Buffer.from(JSON.stringify({ amount: '1' })).toString('base64')
    const base64 = await invoke(swapTokensEthereum, {
      ...httpEvent({
        routeKey: SWAP_ROUTE,
        pathParameters: { key: caller.privateKey },
        headers: bearer(caller.access),
        rawBody: small,
      }),
      isBase64Encoded: true,
    })
    expect(base64.status).not.toBe(413)
  })
})

describe('addresses (DECISIONS §7.2)', () => {
  const checksummed = privateKeyToAccount(generatePrivateKey()).address
  const flipped = () => {
    const index = [...checksummed].findIndex((char, at) => at > 1 && /[a-fA-F]/.test(char))
    const char = checksummed[index] ?? 'a'
    const swapped = char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase()
    return `${checksummed.slice(0, index)}${swapped}${checksummed.slice(index + 1)}`
  }

  function transfer(body: unknown) {
    return invoke(
      transferEthereum,
      httpEvent({
        routeKey: TRANSFER_ROUTE,
        pathParameters: { key: caller.privateKey },
        headers: bearer(caller.access),
        body,
      }),
    )
  }

  it('refuses a transfer to an address with one letter of its checksum flipped', async () => {
    const response = await transfer({ to: flipped(), amount: '0.001' })

    expect(response.status).toBe(400)
    expect(JSON.stringify(response.body)).toContain('checksum')
  })

  it('accepts the same address checksummed, all lower and all upper case', async () => {
    for (const address of [
      checksummed,
      checksummed.toLowerCase(),
      `0x${checksummed.slice(2).toUpperCase()}`,
    ]) {
      const response = await invoke(
        getNonce,
        httpEvent({ route: 'getNonce', pathParameters: { address } }),
      )
      expect(response.status).toBe(200)
    }
  })

  it('refuses a nonce request for a mis-checksummed address', async () => {
    const response = await invoke(
      getNonce,
      httpEvent({
        route: 'getNonce',
        pathParameters: { address: flipped() },
      }),
    )

    expect(response.status).toBe(400)
  })

  it('refuses tokens sent to the token contract itself', async () => {
    const token = demoToken('ethereum')

    const response = await transfer({ to: token.address, token: token.address, amount: '1' })

    expect(response.status).toBe(400)
    expect(JSON.stringify(response.body)).toContain('token contract itself')
  })

  it('refuses a transfer to the zero address', async () => {
    const response = await transfer({
      to: '0x0000000000000000000000000000000000000000',
      amount: '0.001',
    })

    expect(response.status).toBe(400)
  })
})
