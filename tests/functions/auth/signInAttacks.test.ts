import '../../support/env'
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import fc from 'fast-check'
import { randomBytes } from 'node:crypto'
import { type Hex, keccak256, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it, vi } from 'vitest'
import { handler as getNonce } from '../../../functions/auth/getNonce'
import { handler as loginWallet } from '../../../functions/auth/loginWallet'
import { NONCE_TRIES_WITHOUT_FIELD } from '../../../lib/auth/walletSignIn'
import * as siwe from '../../../lib/auth/siwe'
import { db, tableName } from '../../../lib/db/client'
import {
  clientNoncePartition,
  clientWindowKey,
  noncePartition,
  walletKey,
} from '../../../lib/db/keys'
import { findKnownWallets } from '../../../lib/db/wallet'
import { httpEvent, invoke, lambdaContext } from '../../support/httpEvent'
import { countRequests, formatCounts } from '../../support/requestCounters'
import { uniqueClient } from '../../support/uniqueClient'

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

/** The owner's signature over a nonce issued to `sourceIp` (a random client unless given). */
async function signedNonce(privateKey: Hex, sourceIp?: string) {
  const account = privateKeyToAccount(privateKey)
  const response = await requestNonce(account.address, sourceIp)
  const { message, nonce } = response.body.result as { message: string; nonce: number }
  return { address: account.address, nonce, signature: await account.signMessage({ message }) }
}

function login(body: unknown, sourceIp?: string) {
  return invoke(loginWallet, httpEvent({ routeKey: LOGIN_ROUTE, body, sourceIp }))
}

/** The nonce items under the address's NONCE# keys, read strongly consistent. */
async function nonceItems(partition: string) {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ConsistentRead: true,
    }),
  )
  return Items
}

/** A client's source address of its own, so that no other test (nor another call) shares its budgets. */
const clientAddress = uniqueClient

/** 65 bytes that are a well-formed signature of somebody else. */
const strangersSignature = (seed: string) =>
  privateKeyToAccount(keccak256(toHex(seed))).signMessage({ message: seed })

describe('nonce interference (DECISIONS §7.1, §9.4, §10.4)', () => {
  it("lets the victim log in after a stranger asked for the victim's nonces many times", async () => {
    const privateKey = generatePrivateKey()
    const victim = await signedNonce(privateKey)
    for (let request = 0; request < 8; request++) await requestNonce(victim.address)

    const response = await login(victim)

    expect(response.status).toBe(200)
  })

  it("logs the victim in without the `nonce` field after strangers asked for 8 of the victim's nonces, in one local recovery over its own client's one nonce and no credential check", async () => {
    const client = clientAddress()
    const victim = await signedNonce(generatePrivateKey(), client)
    for (let request = 0; request < 8; request++) {
      expect((await requestNonce(victim.address, clientAddress())).status).toBe(200)
    }
    const recover = vi.mocked(siwe.recoverSignedNonce)
    recover.mockClear()
    const counter = countRequests(db())
    try {
      const response = await login({ address: victim.address, signature: victim.signature }, client)

      expect(response.status).toBe(200)
      // Only the nonce issued to this client is tried, found by local recovery; nothing but the
      // client's budget is counted (no attempt reserved, none given back).
      expect(recover).toHaveBeenCalledTimes(1)
      expect(recover.mock.calls[0]?.[1]).toHaveLength(1)
      expect(formatCounts(counter.take().dynamo.byCommand)).toBe(
        'Query ×1, TransactWriteItems ×1, UpdateItem ×1',
      )
    } finally {
      counter.stop()
    }
  })

  it('verifies a named nonce by its MAC: the login reads no nonce item (the client budget, then one transaction)', async () => {
    const victim = await signedNonce(generatePrivateKey())
    const counter = countRequests(db())
    try {
      const response = await login(victim)

      expect(response.status).toBe(200)
      expect(formatCounts(counter.take().dynamo.byCommand)).toBe(
        'TransactWriteItems ×1, UpdateItem ×1',
      )
    } finally {
      counter.stop()
    }
  })

  it("issues the owner a nonce after a stranger asked for 20 of the address's, and signs the owner in with it (issue 32)", async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const stranger = clientAddress()
    // The replay of issue 32: 20 nonce requests for the address from one client, within its own
    // budget (30 a minute). Before §9.4 the owner's request then answered 429.
    for (let request = 0; request < 20; request++) {
      expect((await requestNonce(owner.address, stranger)).status).toBe(200)
    }

    const issued = await requestNonce(owner.address, clientAddress())
    expect(issued.status).toBe(200)
    const { message, nonce } = issued.body.result as { message: string; nonce: number }
    const response = await login({
      address: owner.address,
      nonce,
      signature: await owner.signMessage({ message }),
    })

    expect(response.status).toBe(200)
  })

  it("keeps each nonce in its own client's partition only: strangers' requests add nothing to the owner's client's, and a used nonce is marked once under the address", async () => {
    const ownerClient = clientAddress()
    const stranger = clientAddress()
    const owner = await signedNonce(generatePrivateKey(), ownerClient)
    for (let request = 0; request < 25; request++) {
      expect((await requestNonce(owner.address, stranger)).status).toBe(200)
    }

    expect(await nonceItems(clientNoncePartition(owner.address, ownerClient))).toEqual([
      expect.objectContaining({ type: 'Nonce', nonce: owner.nonce }),
    ])
    expect(await nonceItems(clientNoncePartition(owner.address, stranger))).toHaveLength(25)
    expect((await login(owner, clientAddress())).status).toBe(200)
    expect(await nonceItems(noncePartition(owner.address))).toEqual([
      expect.objectContaining({ sk: `USED#${owner.nonce}`, type: 'UsedNonce' }),
    ])
  })

  it(`tries at most its own client's newest ${NONCE_TRIES_WITHOUT_FIELD} nonces by local recovery for a login without \`nonce\``, async () => {
    const recover = vi.mocked(siwe.recoverSignedNonce)
    /** The owner's login without `nonce` after its own client asked `later` more nonces. */
    const loginAfter = async (later: number) => {
      const owner = privateKeyToAccount(generatePrivateKey())
      const client = clientAddress()
      const issued = await requestNonce(owner.address, client)
      const { message } = issued.body.result as { message: string }
      for (let request = 0; request < later; request++) {
        expect((await requestNonce(owner.address, client)).status).toBe(200)
      }
      recover.mockClear()
      const response = await login(
        { address: owner.address, signature: await owner.signMessage({ message }) },
        client,
      )
      return { status: response.status, tried: recover.mock.calls.map((call) => call[1].length) }
    }

    // The signed nonce the oldest of the newest 5: found; one more nonce after it: not tried.
    expect(await loginAfter(NONCE_TRIES_WITHOUT_FIELD - 1)).toEqual({
      status: 200,
      tried: [NONCE_TRIES_WITHOUT_FIELD],
    })
    expect(await loginAfter(NONCE_TRIES_WITHOUT_FIELD)).toEqual({
      status: 401,
      tried: [NONCE_TRIES_WITHOUT_FIELD],
    })
  })

  it("does not try another client's nonces for a login without `nonce`: 401004, and the same login naming its nonce signs in", async () => {
    const owner = await signedNonce(generatePrivateKey(), clientAddress())
    const elsewhere = clientAddress()

    const unnamed = await login({ address: owner.address, signature: owner.signature }, elsewhere)
    const named = await login(owner, elsewhere)

    expect(unnamed.body.error?.code).toBe(401004)
    expect(named.status).toBe(200)
  })

  it("finds the signed nonce among its client's newest when the login does not name it", async () => {
    const client = clientAddress()
    const { address, signature } = await signedNonce(generatePrivateKey(), client)
    for (let request = 0; request < 4; request++) await requestNonce(address, client)

    expect((await login({ address, signature }, client)).status).toBe(200)
  })

  it('accepts each nonce once, named or not, from any client', async () => {
    const client = clientAddress()
    const victim = await signedNonce(generatePrivateKey(), client)
    expect((await login(victim)).status).toBe(200)

    expect((await login(victim)).body.error?.code).toBe(401004)
    expect((await login(victim, client)).body.error?.code).toBe(401004)
    const unnamed = { address: victim.address, signature: victim.signature }
    expect((await login(unnamed, client)).body.error?.code).toBe(401004)
  })

  it('lets exactly one of 8 concurrent logins with one signed nonce sign in', async () => {
    const victim = await signedNonce(generatePrivateKey())

    const responses = await Promise.all(Array.from({ length: 8 }, () => login(victim)))

    expect(responses.map((response) => response.status).sort()).toEqual([
      200, 401, 401, 401, 401, 401, 401, 401,
    ])
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

describe('named nonces the service did not issue (DECISIONS §10.4)', () => {
  /** The owner's signature over the sign-in message of an arbitrary nonce, issued now. */
  async function selfMadeNonce(nonce: number) {
    const owner = privateKeyToAccount(generatePrivateKey())
    const message = siwe.signInMessage(owner.address, {
      nonce,
      issuedAt: new Date(Math.floor(Date.now() / 1000) * 1000),
    })
    return { address: owner.address, nonce, signature: await owner.signMessage({ message }) }
  }

  it('refuses with 401004 a signed message whose nonce the service never issued, with no RPC call', async () => {
    // Seeded: nonces of the issued shape (15 digits, within the range) that carry no valid MAC.
    const nonces = fc.sample(fc.integer({ min: 2 ** 52, max: Number.MAX_SAFE_INTEGER }), {
      numRuns: 5,
      seed: 39,
    })
    const counter = countRequests(db())
    try {
      for (const nonce of nonces) {
        expect((await login(await selfMadeNonce(nonce))).body.error?.code).toBe(401004)
      }
      expect(counter.take().rpc.calls).toBe(0)
    } finally {
      counter.stop()
    }
  })

  it("refuses with 401004 another address's nonce, signed for this address", async () => {
    const issuedFor = privateKeyToAccount(generatePrivateKey()).address
    const { nonce } = (await requestNonce(issuedFor)).body.result as { nonce: number }

    expect((await login(await selfMadeNonce(nonce))).body.error?.code).toBe(401004)
  })

  it.each([
    ['a string', 'abc'],
    ['a negative number', -5],
    ['a fraction', 1.5],
    ['an unsafe integer', 2 ** 53],
    ['zero', 0],
  ])('answers 400 naming body.nonce for %s', async (_case, nonce) => {
    const { address, signature } = await signedNonce(generatePrivateKey())

    const response = await login({ address, signature, nonce })

    expect(response).toMatchObject({
      status: 400,
      body: { ok: false, error: { code: 400, details: [{ path: 'body.nonce' }] } },
    })
  })
})

describe('cheap rejection of wallet logins (DECISIONS §7.1)', () => {
  it("rejects a wrong 65-byte signature for an address without code after one eth_getCode, from the client's RPC budget, counting no check", async () => {
    // Since issue 39 a 65-byte signature that does not recover to the address may be a contract
    // wallet's (EIP-1271): the address's code decides, one call charged to the client.
    const { address, nonce } = await signedNonce(generatePrivateKey())
    const counter = countRequests(db())
    try {
      const response = await login({ address, nonce, signature: await strangersSignature('x') })
      expect(response.body.error?.code).toBe(401004)
      const { rpc, dynamo } = counter.take()
      expect(rpc.byMethod).toEqual({ eth_getCode: 1 })
      // The login budget and the RPC budget; no attempt reserved.
      expect(formatCounts(dynamo.byCommand)).toBe('UpdateItem ×2')
    } finally {
      counter.stop()
    }
  })

  it('rejects a wrong signature for an unknown named nonce with no RPC call', async () => {
    const { address } = await signedNonce(generatePrivateKey())
    const counter = countRequests(db())
    try {
      const response = await login({
        address,
        nonce: 2 ** 52 + 1,
        signature: await strangersSignature('y'),
      })
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

describe('sign-in nobody can lock (DECISIONS §9.4)', () => {
  it('signs the owner in after five 65-byte garbage signatures from the same client (issue 32)', async () => {
    // The replay of issue 32, from one client: a nonce for a fresh address, five garbage
    // signatures (401004 each), then the owner's valid signature with its own nonce. Before
    // §9.4 the owner answered 429 "too many failed logins" for up to 15 minutes.
    const client = clientAddress()
    const owner = privateKeyToAccount(generatePrivateKey())
    const issued = await requestNonce(owner.address, client)
    const { message, nonce } = issued.body.result as { message: string; nonce: number }
    for (let guess = 0; guess < 5; guess++) {
      const garbage = `0x${randomBytes(65).toString('hex')}`
      const refused = await login({ address: owner.address, nonce, signature: garbage }, client)
      expect(refused.body.error?.code).toBe(401004)
    }

    const response = await login(
      { address: owner.address, nonce, signature: await owner.signMessage({ message }) },
      client,
    )

    expect(response.status).toBe(200)
  })

  it('checks every one of 20 concurrent wrong signatures locally (then finds no code) and answers each 401004, none 429; the owner then signs in', async () => {
    // The guesses come from the client the nonce was issued to, so each is tried against it.
    const client = clientAddress()
    const owner = await signedNonce(generatePrivateKey(), client)
    const recover = vi.mocked(siwe.recoverSignedNonce)
    recover.mockClear()
    const signatures = await Promise.all(
      Array.from({ length: 20 }, (_, index) => strangersSignature(`guess ${index}`)),
    )

    const responses = await Promise.all(
      signatures.map((signature) => login({ address: owner.address, signature }, client)),
    )

    expect(recover).toHaveBeenCalledTimes(20)
    expect(responses.map((response) => response.body.error?.code)).toEqual(
      Array.from({ length: 20 }, () => 401004),
    )
    expect((await login(owner)).status).toBe(200)
  })
})

describe('per-client limits (DECISIONS §7.1)', () => {
  it('answers 429 with Retry-After once an IP spends its 30 nonces a minute; another IP is served', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address
    const flooder = uniqueClient()
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
