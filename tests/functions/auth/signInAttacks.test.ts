import '../../support/env'
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import { type Hex, keccak256, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { handler as getNonce } from '../../../functions/auth/getNonce'
import { handler as loginWallet } from '../../../functions/auth/loginWallet'
import { CREDENTIAL_WINDOW_SECONDS, MAX_CREDENTIAL_CHECKS } from '../../../lib/auth/attemptBudget'
import * as siwe from '../../../lib/auth/siwe'
import { db, tableName } from '../../../lib/db/client'
import { attemptWindowKey, clientWindowKey, noncePartition, walletKey } from '../../../lib/db/keys'
import { windowOf } from '../../../lib/db/windowCounter'
import { loadAuthConfig } from '../../../lib/config'
import { NONCE_LIFETIME_MS } from '../../../lib/auth/siwe'
import { findKnownWallets } from '../../../lib/db/wallet'
import { httpEvent, invoke, lambdaContext } from '../../support/httpEvent'
import { countRequests } from '../../support/requestCounters'
import { clearOfWindowEnd } from '../../support/windowEdge'

// Counts the signature checks that run, without changing what they do.
vi.mock('../../../lib/auth/siwe', async (importOriginal) => {
  const original = await importOriginal<typeof siwe>()
  return {
    ...original,
    recoverSignedNonce: vi.fn(original.recoverSignedNonce),
    verifyContractSignature: vi.fn(original.verifyContractSignature),
  }
})

const NONCE_ROUTE = 'GET /api/v1/auth/nonce/{address}'
const LOGIN_ROUTE = 'POST /api/v1/auth/login'

function requestNonce(address: string, sourceIp?: string) {
  return invoke(
    getNonce,
    httpEvent({ routeKey: NONCE_ROUTE, pathParameters: { address }, sourceIp }),
  )
}

async function signedNonce(privateKey: Hex) {
  const account = privateKeyToAccount(privateKey)
  const response = await requestNonce(account.address)
  const { message, nonce } = response.body.result as { message: string; nonce: number }
  return { address: account.address, nonce, signature: await account.signMessage({ message }) }
}

function login(body: unknown, sourceIp?: string) {
  return invoke(loginWallet, httpEvent({ routeKey: LOGIN_ROUTE, body, sourceIp }))
}

/** The credential checks the address's present window holds (a success gives its own back). */
async function attemptsCounted(address: string): Promise<number> {
  const { startsAt } = windowOf(CREDENTIAL_WINDOW_SECONDS)
  const { Item } = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: attemptWindowKey('wallet', address, startsAt),
      ConsistentRead: true,
    }),
  )
  return Number(Item?.count ?? 0)
}

/** 65 bytes that are a well-formed signature of somebody else. */
const strangersSignature = (seed: string) =>
  privateKeyToAccount(keccak256(toHex(seed))).signMessage({ message: seed })

describe('nonce interference (DECISIONS §7.1)', () => {
  it("lets the victim log in after a stranger asked for the victim's nonces many times", async () => {
    const privateKey = generatePrivateKey()
    const victim = await signedNonce(privateKey)
    for (let request = 0; request < 8; request++) await requestNonce(victim.address)

    const response = await login(victim)

    expect(response.status).toBe(200)
  })

  it("logs the victim in without the `nonce` field after strangers asked for 8 of the victim's nonces, and spends no attempt (§8.2)", async () => {
    await clearOfWindowEnd(CREDENTIAL_WINDOW_SECONDS, 30)
    const victim = await signedNonce(generatePrivateKey())
    for (let request = 0; request < 8; request++) {
      expect((await requestNonce(victim.address)).status).toBe(200)
    }
    const recover = vi.mocked(siwe.recoverSignedNonce)
    recover.mockClear()

    const response = await login({ address: victim.address, signature: victim.signature })

    expect(response.status).toBe(200)
    // The oldest of 9 outstanding nonces, found by local recovery in one credential check.
    expect(recover).toHaveBeenCalledTimes(1)
    expect(recover.mock.calls[0]?.[1]).toHaveLength(9)
    expect(await attemptsCounted(victim.address)).toBe(0)
  })

  it('answers 429 with Retry-After once an address holds its 20 nonces of the window, and issues no more', async () => {
    await clearOfWindowEnd(NONCE_LIFETIME_MS / 1000, 60)
    const address = privateKeyToAccount(generatePrivateKey()).address
    const cap = loadAuthConfig().noncesPerAddress
    expect(cap).toBe(20)
    // Each request from a random source IP of its own: the per-IP limit is not what refuses.
    for (let request = 0; request < cap; request++) {
      expect((await requestNonce(address)).status).toBe(200)
    }

    const refused = (await getNonce(
      httpEvent({ routeKey: NONCE_ROUTE, pathParameters: { address } }),
      lambdaContext(),
    )) as { statusCode: number; headers: Record<string, string>; body: string }

    expect(refused.statusCode).toBe(429)
    expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: 429 } })
    const retryAfter = Number(refused.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(60)
    expect(retryAfter).toBeLessThanOrEqual(NONCE_LIFETIME_MS / 1000)
    const { Items = [] } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :nonce)',
        ExpressionAttributeValues: { ':pk': noncePartition(address), ':nonce': 'NONCE#' },
        ConsistentRead: true,
      }),
    )
    expect(Items).toHaveLength(cap)
  })

  it('finds the signed nonce among the newest five when the login does not name it', async () => {
    const privateKey = generatePrivateKey()
    const { address, signature } = await signedNonce(privateKey)
    for (let request = 0; request < 4; request++) await requestNonce(address)

    expect((await login({ address, signature })).status).toBe(200)
  })

  it('accepts each nonce once', async () => {
    const victim = await signedNonce(generatePrivateKey())
    expect((await login(victim)).status).toBe(200)

    expect((await login(victim)).body.error?.code).toBe(401004)
  })

  it('writes no wallet record for a nonce request: a wallet is known from its first login', async () => {
    const contract = privateKeyToAccount(generatePrivateKey()).address
    await requestNonce(contract)

    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: walletKey(contract), ConsistentRead: true }),
    )
    expect(Item).toBeUndefined()
    expect(await findKnownWallets([contract])).toEqual(new Set())

    const owner = await signedNonce(generatePrivateKey())
    await login(owner)
    expect(await findKnownWallets([owner.address])).toEqual(new Set([owner.address.toLowerCase()]))
  })
})

describe('cheap rejection of wallet logins (DECISIONS §7.1)', () => {
  it('rejects a wrong 65-byte signature for an address without code with no RPC call', async () => {
    const { address, nonce } = await signedNonce(generatePrivateKey())
    const counter = countRequests(db())
    try {
      const response = await login({ address, nonce, signature: await strangersSignature('x') })
      expect(response.body.error?.code).toBe(401004)
      expect(counter.take().rpc.calls).toBe(0)
    } finally {
      counter.stop()
    }
  })

  it('refuses a signature over 8 KB with 400 before any check', async () => {
    const { address } = await signedNonce(generatePrivateKey())

    const response = await login({ address, signature: `0x${'ab'.repeat(10_000)}` })

    expect(response.status).toBe(400)
  })

  it('refuses a long signature for an address without code after one eth_getCode', async () => {
    const { address, nonce } = await signedNonce(generatePrivateKey())
    const counter = countRequests(db())
    try {
      const response = await login({ address, nonce, signature: `0x${'ab'.repeat(200)}` })
      expect(response.body.error?.code).toBe(401004)
      expect(counter.take().rpc.byMethod).toEqual({ eth_getCode: 1 })
    } finally {
      counter.stop()
    }
  })
})

describe('attempt budget of an address (DECISIONS §7.1)', () => {
  // The attempts of a test fall in one 15-minute window, however slow the machine.
  beforeEach(() => clearOfWindowEnd(CREDENTIAL_WINDOW_SECONDS, 60))

  it('lets at most 5 of 20 concurrent bad logins reach signature verification', async () => {
    const { address } = await signedNonce(generatePrivateKey())
    const recover = vi.mocked(siwe.recoverSignedNonce)
    recover.mockClear()
    const signatures = await Promise.all(
      Array.from({ length: 20 }, (_, index) => strangersSignature(`guess ${index}`)),
    )

    const responses = await Promise.all(
      signatures.map((signature) => login({ address, signature })),
    )

    expect(recover).toHaveBeenCalledTimes(MAX_CREDENTIAL_CHECKS)
    expect(responses.filter((response) => response.status === 429)).toHaveLength(
      20 - MAX_CREDENTIAL_CHECKS,
    )
  })

  it('answers 429 to a valid signature after 5 failures in the window', async () => {
    const owner = await signedNonce(generatePrivateKey())
    for (let guess = 0; guess < MAX_CREDENTIAL_CHECKS; guess++) {
      const response = await login({
        address: owner.address,
        signature: await strangersSignature(`g${guess}`),
      })
      expect(response.body.error?.code).toBe(401004)
    }

    expect((await login(owner)).status).toBe(429)
  })
})

describe('per-client limits (DECISIONS §7.1)', () => {
  it('answers 429 with Retry-After once an IP spends its 30 nonces a minute; another IP is served', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address
    const flooder = `198.51.100.${Math.floor(Math.random() * 250)}`
    // A fresh address each time: an address's own cap (20 a window) must not refuse first.
    const ask = async () =>
      (await getNonce(
        httpEvent({
          routeKey: NONCE_ROUTE,
          pathParameters: { address: privateKeyToAccount(generatePrivateKey()).address },
          sourceIp: flooder,
        }),
        lambdaContext(),
      )) as { statusCode: number; headers: Record<string, string>; body: string }

    // Two windows at most (the flood may cross a minute boundary), so 61 requests are enough.
    let refused: Awaited<ReturnType<typeof ask>> | undefined
    for (let request = 0; request < 61 && !refused; request++) {
      const answer = await ask()
      if (answer.statusCode === 429) refused = answer
      else expect(answer.statusCode).toBe(200)
    }

    expect(refused && JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: 429 } })
    const retryAfter = Number(refused?.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    // The window that refused (it ends `retryAfter` seconds after the refusal) holds the budget.
    const windowEnd = Math.round((Date.now() / 1000 + retryAfter) / 60) * 60
    const windowStart = windowEnd - 60
    const { Item } = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: clientWindowKey('nonce', flooder, windowStart),
        ConsistentRead: true,
      }),
    )
    expect(Item?.count).toBe(30)
    expect((await requestNonce(address, '198.51.100.251')).status).toBe(200)
  })
})
