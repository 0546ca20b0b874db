// A client of the wallet backend for a TypeScript app to copy: this file and api.d.ts beside it
// (types generated from schemas/openapi.json; `npm run client:types` regenerates them). It needs
// `openapi-fetch` and nothing else; signing is the app's (a viem account or wallet client, say).
// No Lambda imports it: it lives outside functions/, lib/ and schemas/, which the bundles reach.
import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from './api'

export type Schemas = components['schemas']
export type Session = Schemas['Session']

/** What signs the sign-in message: a viem LocalAccount, or a WalletClient bound to an account. */
export interface MessageSigner {
  address: `0x${string}`
  signMessage(args: { message: string }): Promise<`0x${string}`>
}

export interface WalletApiOptions {
  /** The stage's origin, e.g. `https://abcdef1234.execute-api.us-east-1.amazonaws.com`. */
  baseUrl: string
  /** Defaults to the global fetch. */
  fetch?: typeof fetch
  /** How often a 429 is tried again, each after its `Retry-After` (default 2). */
  maxRetries?: number
  /** A longer `Retry-After` (a sign-in lockout is 15 minutes) is answered as it is (default 60). */
  maxRetryAfterSeconds?: number
  /** Waits before a retry; the default is a timer. */
  wait?: (milliseconds: number) => Promise<void>
  /** A fresh `Idempotency-Key` for each money-moving call; the default is a random UUID. */
  idempotencyKey?: () => string
  /** Called whenever the session changes (signed in, refreshed, ended), e.g. to persist it. */
  onSession?: (session: Session | undefined) => void
}

type Kind = 'wallet' | 'account'

// The routes that move money: a retry of one must not send twice (DECISIONS §4, §7.3).
const MONEY_MOVING = /^\/api\/v1\/(swap\/(native|tokens)\/|transfer\/tokens\/|submit\/)/

// Sign-in and refresh carry their own credentials; everything else gets the access token.
const OWN_CREDENTIALS = /^\/api\/v1\/(auth\/(login|refresh)|account\/(login|register|refresh))/

// Without a Retry-After (the gateway's throttle may omit it), wait this long.
const DEFAULT_RETRY_AFTER_SECONDS = 1

// DECISIONS §1: the 401 sub-code of an expired, badly signed or wrong-kind token.
const EXPIRED_OR_INVALID = 401002

async function errorCodeOf(response: Response): Promise<number | undefined> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: number } }
    return body.error?.code
  } catch {
    return undefined
  }
}

const sleep = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds))

type Api = ReturnType<typeof createClient<paths>>

/** The signed-in session, and its one refresh however many requests found it expired at once. */
function sessionKeeper(api: Api, onSession: WalletApiOptions['onSession']) {
  let current: { kind: Kind; tokens: Session } | undefined
  let refreshing: Promise<boolean> | undefined
  const keeper = {
    get current() {
      return current
    },
    set(kind: Kind, tokens: Session | undefined): void {
      current = tokens && { kind, tokens }
      onSession?.(tokens)
    },
    refresh(): Promise<boolean> {
      const held = current
      if (!held) return Promise.resolve(false)
      refreshing ??= (async () => {
        const headers = { Authorization: `Bearer ${held.tokens.refresh}` }
        const renewed =
          held.kind === 'wallet'
            ? (await api.GET('/api/v1/auth/refresh', { headers })).data?.result
            : (await api.GET('/api/v1/account/refresh', { headers })).data?.result.token
        keeper.set(held.kind, renewed)
        return renewed !== undefined
      })().finally(() => {
        refreshing = undefined
      })
      return refreshing
    },
  }
  return keeper
}

type SessionKeeper = ReturnType<typeof sessionKeeper>

/**
 * The access token on every request but sign-in's, an `Idempotency-Key` on money-moving ones; a
 * 401002 refreshed once and sent again; a 429 sent again after its `Retry-After`.
 */
function sessionMiddleware(options: WalletApiOptions, keeper: SessionKeeper): Middleware {
  const send = options.fetch ?? globalThis.fetch
  const maxRetries = options.maxRetries ?? 2
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 60
  const wait = options.wait ?? sleep
  const newKey = options.idempotencyKey ?? (() => crypto.randomUUID())
  // The request as it was before the first send, so it can be sent again (a body is read once).
  const originals = new Map<string, Request>()
  const bearer = () => `Bearer ${keeper.current?.tokens.access}`
  return {
    onRequest({ request, schemaPath, id }) {
      const own = OWN_CREDENTIALS.test(schemaPath)
      if (keeper.current && !own && !request.headers.has('Authorization')) {
        request.headers.set('Authorization', bearer())
      }
      if (MONEY_MOVING.test(schemaPath) && !request.headers.has('Idempotency-Key')) {
        request.headers.set('Idempotency-Key', newKey())
      }
      originals.set(id, request.clone())
      return request
    },
    async onResponse({ request, response, schemaPath, id }) {
      const original = originals.get(id)
      originals.delete(id)
      if (!original) return response
      const own = OWN_CREDENTIALS.test(schemaPath)
      let answer = response
      // An access token refused as expired or invalid (401002): one refresh, shared by every
      // request that met it, then the same request once more. A request sent with a token that
      // another one already renewed is sent again without a refresh of its own.
      if (answer.status === 401 && keeper.current && !own) {
        const renewed =
          (await errorCodeOf(answer)) === EXPIRED_OR_INVALID &&
          (request.headers.get('Authorization') !== bearer() || (await keeper.refresh()))
        if (renewed && keeper.current) {
          const again = original.clone()
          again.headers.set('Authorization', bearer())
          answer = await send(again)
        }
      }
      for (let retry = 0; answer.status === 429 && retry < maxRetries; retry += 1) {
        const seconds = Number(answer.headers.get('Retry-After') ?? DEFAULT_RETRY_AFTER_SECONDS)
        if (!Number.isFinite(seconds) || seconds > maxRetryAfter) break
        await wait(seconds * 1000)
        const again = original.clone()
        if (keeper.current && again.headers.has('Authorization') && !own) {
          again.headers.set('Authorization', bearer())
        }
        answer = await send(again)
      }
      return answer
    },
    onError({ id }) {
      // The network failed: nothing to send again; the error reaches the caller as it is.
      originals.delete(id)
    },
  }
}

/**
 * The typed client (`api`: openapi-fetch over the generated `paths`) with sign-in, refresh once
 * on a 401, retries of a 429 after `Retry-After`, and an `Idempotency-Key` on money-moving calls.
 */
export function createWalletApi(options: WalletApiOptions) {
  const api = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch ?? fetch })
  const keeper = sessionKeeper(api, options.onSession)
  api.use(sessionMiddleware(options, keeper))

  return {
    api,
    /** The current session's tokens, if signed in. */
    get session(): Session | undefined {
      return keeper.current?.tokens
    },
    /** Restores a session the app kept (its access token may have expired: it is refreshed). */
    resume(kind: Kind, tokens: Session): void {
      keeper.set(kind, tokens)
    },
    /** Sign-In with Ethereum: asks for a nonce, signs its EIP-4361 message, signs in. */
    async signInWithWallet(signer: MessageSigner) {
      const nonce = await api.GET('/api/v1/auth/nonce/{address}', {
        params: { path: { address: signer.address } },
      })
      if (!nonce.data) return { error: nonce.error, response: nonce.response }
      const { message } = nonce.data.result
      const login = await api.POST('/api/v1/auth/login', {
        body: {
          address: signer.address,
          signature: await signer.signMessage({ message }),
          nonce: nonce.data.result.nonce,
        },
      })
      if (login.data) keeper.set('wallet', login.data.result)
      return login
    },
    /**
     * `device`: the `result.device` of an earlier sign-in with this username (keep it with the
     * app's settings, 90 days): strangers' guesses at the name never delay a known device.
     */
    async signInWithAccount(username: string, password: string, device?: string) {
      const body = { username, password, ...(device !== undefined && { device }) }
      const login = await api.POST('/api/v1/account/login', { body })
      if (login.data) keeper.set('account', login.data.result.token)
      return login
    },
    /** Ends the session on the server, then forgets it. */
    async signOut() {
      const kind = keeper.current?.kind
      if (!kind) return
      if (kind === 'wallet') await api.DELETE('/api/v1/auth/logout')
      else await api.DELETE('/api/v1/account/logout')
      keeper.set(kind, undefined)
    },
  }
}

export type WalletApi = ReturnType<typeof createWalletApi>

/** The EIP-712 permit a prepare answer offers (`result.permit`, DECISIONS §10.2). */
export type PermitOffer = NonNullable<Schemas['PreparedSwap']['permit']>

/**
 * A prepare answer's `permit` as viem's `signTypedData` takes it (quantities as bigint; an
 * `eth_signTypedData_v4` wallet takes the offer's own `typedData` as it is). Sign it, then prepare
 * the same swap again with `permit: { deadline: offer.deadline, signature }`: the answer is one
 * swap whose multicall starts with `selfPermit`, to sign and submit.
 */
export function permitTypedData(offer: PermitOffer) {
  const { domain, message } = offer.typedData
  return {
    domain: { ...domain, verifyingContract: domain.verifyingContract as `0x${string}` },
    types: { Permit: offer.typedData.types.Permit },
    primaryType: 'Permit' as const,
    message: {
      owner: message.owner as `0x${string}`,
      spender: message.spender as `0x${string}`,
      value: BigInt(message.value),
      nonce: BigInt(message.nonce),
      deadline: BigInt(message.deadline),
    },
  }
}

export { subscribe, type PushMessage, type SubscribeOptions, type Subscription } from './subscribe'
