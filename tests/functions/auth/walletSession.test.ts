import '../../support/env'
import { decodeJwt } from 'jose'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { parseSiweMessage } from 'viem/siwe'
import { beforeEach, describe, expect, it } from 'vitest'
import { handler as getNonce } from '../../../functions/auth/getNonce'
import { handler as loginWallet } from '../../../functions/auth/loginWallet'
import { handler as logoutWallet } from '../../../functions/auth/logoutWallet'
import { handler as refreshWalletSession } from '../../../functions/auth/refreshWalletSession'
import { REPLAY_GRACE_SECONDS } from '../../../lib/auth/sessions'
import { signInWithWallet } from '../../../lib/auth/walletSignIn'
import { httpEvent, invoke } from '../../support/httpEvent'
import { backdateRotation } from '../../support/sessionClock'
import { spyOnDbSend } from '../../support/dbSendSpy'
import { uniqueClient } from '../../support/uniqueClient'

interface Tokens {
  access: string
  refresh: string
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

// Each test's nonces and logins from one client of its own: a login without `nonce` tries the
// nonces issued to its client (DECISIONS §10.4).
let client = uniqueClient()
beforeEach(() => {
  client = uniqueClient()
})

async function requestNonce(address: string) {
  const response = await invoke(
    getNonce,
    httpEvent({ route: 'getNonce', pathParameters: { address }, sourceIp: client }),
  )
  return response.body.result as { nonce: number; message: string }
}

function login(address: string, signature: string) {
  return invoke(
    loginWallet,
    httpEvent({ route: 'loginWallet', body: { address, signature }, sourceIp: client }),
  )
}

async function signIn(privateKey = generatePrivateKey()) {
  const account = privateKeyToAccount(privateKey)
  const { message } = await requestNonce(account.address)
  const signature = await account.signMessage({ message })
  const response = await login(account.address, signature)
  return { account, response, tokens: response.body.result as Tokens, signature }
}

function refresh(token: string) {
  return invoke(
    refreshWalletSession,
    httpEvent({ route: 'refreshWalletSession', headers: bearer(token) }),
  )
}

function logout(token: string) {
  return invoke(logoutWallet, httpEvent({ route: 'logoutWallet', headers: bearer(token) }))
}

describe('wallet sign-in (EIP-4361)', () => {
  it('issues a nonce of at least 9 digits with the exact message to sign', async () => {
    const account = privateKeyToAccount(generatePrivateKey())

    const { nonce, message } = await requestNonce(account.address.toLowerCase())

    expect(Number.isInteger(nonce) && nonce >= 100_000_000).toBe(true)
    expect(parseSiweMessage(message)).toMatchObject({
      address: account.address,
      nonce: String(nonce),
      version: '1',
      chainId: Number(process.env.ETHEREUM_CHAIN_ID),
      domain: 'localhost:3000',
    })
  })

  it('logs in with a signed nonce and returns wallet tokens', async () => {
    const { account, response } = await signIn()

    expect(response.status).toBe(200)
    const { access, refresh: refreshToken } = response.body.result as Tokens
    expect(decodeJwt(access)).toMatchObject({ aud: 'wallet', sub: account.address, typ: 'access' })
    expect(decodeJwt(refreshToken)).toMatchObject({ aud: 'wallet', typ: 'refresh' })
    expect(decodeJwt(access).sid).toBe(decodeJwt(refreshToken).sid)
  })

  it('answers 401004 when the nonce is used twice', async () => {
    const { account, signature } = await signIn()

    const replay = await login(account.address, signature)

    expect(replay).toEqual({
      status: 401,
      body: { ok: false, error: { code: 401004, message: expect.any(String) } },
    })
  })

  it('answers 401004 for another signer, or for another address', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const stranger = privateKeyToAccount(generatePrivateKey())
    const { message } = await requestNonce(owner.address)

    const wrongSigner = await login(owner.address, await stranger.signMessage({ message }))
    const otherAddress = await login(stranger.address, await owner.signMessage({ message }))

    expect(wrongSigner.status).toBe(401)
    expect(wrongSigner.body.error?.code).toBe(401004)
    expect(otherAddress.body.error?.code).toBe(401004)
  })

  it('answers 401004 when the nonce is older than 5 minutes, named or not, and signs in before', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const { message, nonce } = await requestNonce(account.address)
    const signature = await account.signMessage({ message })
    const later = (minutes: number) => new Date(Date.now() + minutes * 60 * 1000)

    for (const named of [nonce, undefined]) {
      await expect(
        signInWithWallet(account.address, signature, {
          nonce: named,
          sourceIp: client,
          now: later(6),
        }),
      ).rejects.toMatchObject({ status: 401, code: 401004 })
    }
    await expect(
      signInWithWallet(account.address, signature, { nonce, sourceIp: client, now: later(4) }),
    ).resolves.toEqual({ access: expect.any(String), refresh: expect.any(String) })
  })

  it('answers 400 naming the field for a malformed address or signature', async () => {
    const response = await login('0x1234', 'not-hex')

    expect(response.status).toBe(400)
    expect(response.body.error?.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'body.address' }),
        expect.objectContaining({ path: 'body.signature' }),
      ]),
    )
  })

  it("logs in with 3 DynamoDB calls: the client's budget, the nonces, one transaction (an EOA's check reserves no attempt)", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const { message } = await requestNonce(account.address)
    const signature = await account.signMessage({ message })
    const send = spyOnDbSend()

    const response = await login(account.address, signature)

    expect(response.status).toBe(200)
    expect(send.mock.calls.length).toBe(3)
  })
})

describe('wallet sessions', () => {
  it('rotates the session on refresh and refuses the old tokens with 401003', async () => {
    const { tokens } = await signIn()

    const rotated = await refresh(tokens.refresh)
    const next = rotated.body.result as Tokens

    expect(rotated.status).toBe(200)
    expect(decodeJwt(next.access).sid).not.toBe(decodeJwt(tokens.access).sid)
    expect((await logout(tokens.access)).body.error?.code).toBe(401003)
  })

  it("treats a replayed refresh token as theft of its family only: the phone's login survives", async () => {
    const privateKey = generatePrivateKey()
    const { tokens: laptop } = await signIn(privateKey)
    const { tokens: phone } = await signIn(privateKey)
    const rotated = (await refresh(laptop.refresh)).body.result as Tokens
    await backdateRotation(laptop.refresh, REPLAY_GRACE_SECONDS + 1)

    const replay = await refresh(laptop.refresh)

    expect(replay.body.error?.code).toBe(401003)
    expect((await refresh(rotated.refresh)).body.error?.code).toBe(401003)
    expect((await refresh(phone.refresh)).status).toBe(200)
  })

  it('keeps a dead family dead, and a later login alive when the dead tokens are replayed again', async () => {
    const privateKey = generatePrivateKey()
    const { tokens: first } = await signIn(privateKey)
    const rotated = (await refresh(first.refresh)).body.result as Tokens
    await backdateRotation(first.refresh, REPLAY_GRACE_SECONDS + 1)
    await refresh(first.refresh)
    const { tokens: later } = await signIn(privateKey)

    expect((await refresh(first.refresh)).body.error?.code).toBe(401003)
    expect((await refresh(rotated.refresh)).body.error?.code).toBe(401003)

    const afterReplays = await refresh(later.refresh)
    expect(afterReplays.status).toBe(200)
    expect((await logout((afterReplays.body.result as Tokens).access)).status).toBe(200)
  })

  it('of 8 concurrent refreshes, lets exactly one win and its tokens keep working', async () => {
    const { tokens } = await signIn()

    const responses = await Promise.all(Array.from({ length: 8 }, () => refresh(tokens.refresh)))

    const winners = responses.filter((response) => response.status === 200)
    expect(winners).toHaveLength(1)
    const won = winners[0]?.body.result as Tokens
    const next = await refresh(won.refresh)
    expect(next.status).toBe(200)
    expect((await logout((next.body.result as Tokens).access)).status).toBe(200)
  })

  it('lets exactly one of 20 concurrent refreshes with one token succeed', async () => {
    const { tokens } = await signIn()

    const responses = await Promise.all(Array.from({ length: 20 }, () => refresh(tokens.refresh)))

    expect(responses.filter((response) => response.status === 200)).toHaveLength(1)
    expect(
      responses.filter(
        (response) => response.status === 401 && response.body.error?.code === 401003,
      ),
    ).toHaveLength(19)
  })

  it('ends only the session of the presented token on logout', async () => {
    const privateKey = generatePrivateKey()
    const { tokens: laptop } = await signIn(privateKey)
    const { tokens: phone } = await signIn(privateKey)

    const loggedOut = await logout(laptop.access)

    expect(loggedOut).toEqual({ status: 200, body: { ok: true, result: {} } })
    expect((await logout(laptop.access)).body.error?.code).toBe(401003)
    expect((await refresh(phone.refresh)).status).toBe(200)
  })

  it('refuses an access token on the refresh route and a refresh token on logout (401002)', async () => {
    const { tokens } = await signIn()

    expect((await refresh(tokens.access)).body.error?.code).toBe(401002)
    expect((await logout(tokens.refresh)).body.error?.code).toBe(401002)
  })
})
