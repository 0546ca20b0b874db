import '../support/env'
import type { Context } from 'aws-lambda'
import * as fc from 'fast-check'
import { decodeJwt } from 'jose'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { randomUUID } from 'node:crypto'
import { type Address, type Hex, maxUint256, zeroAddress } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest'
import { handler as loginAccount } from '../../functions/account/loginAccount'
import { handler as logoutAccount } from '../../functions/account/logoutAccount'
import { handler as refreshAccountSession } from '../../functions/account/refreshAccountSession'
import { handler as registerAccount } from '../../functions/account/registerAccount'
import { handler as getNonce } from '../../functions/auth/getNonce'
import { handler as loginWallet } from '../../functions/auth/loginWallet'
import { handler as logoutWallet } from '../../functions/auth/logoutWallet'
import { handler as refreshWalletSession } from '../../functions/auth/refreshWalletSession'
import { handler as attachWalletNetworks } from '../../functions/networks/attachWalletNetworks'
import { handler as getWalletBalances } from '../../functions/networks/getWalletBalances'
import { handler as getApproval } from '../../functions/swap/getApproval'
import { handler as listNetworks } from '../../functions/networks/listNetworks'
import { handler as getDailyPriceHistory } from '../../functions/price/getDailyPriceHistory'
import { handler as getMonthlyPriceHistory } from '../../functions/price/getMonthlyPriceHistory'
import { handler as getYearlyPriceHistory } from '../../functions/price/getYearlyPriceHistory'
import { handler as getProjectDetails } from '../../functions/project/getProjectDetails'
import { handler as listTokens } from '../../functions/swap/listSwapTokens'
import { handler as getTradeByHash } from '../../functions/trade/getTradeByHash'
import { handler as getTradeById } from '../../functions/trade/getTradeById'
import { handler as listTrades } from '../../functions/trades/listTrades'
import { handler as createWallet } from '../../functions/wallet/createWallet'
import { handler as generateMnemonic } from '../../functions/wallet/generateMnemonic'
import { handler as recoverWalletFromKey } from '../../functions/wallet/recoverWalletFromKey'
import { handler as recoverWalletFromMnemonic } from '../../functions/wallet/recoverWalletFromMnemonic'
import { handler as addToWatchlist } from '../../functions/watchlist/addToWatchlist'
import { handler as listWatchlist } from '../../functions/watchlist/listWatchlist'
import { handler as removeFromWatchlist } from '../../functions/watchlist/removeFromWatchlist'
import { handler as createWsTicket } from '../../functions/ws/createWsTicket'
import { jwtSecret } from '../../lib/auth/jwtSecret'
import { getTransactionCount, sendRawTransaction } from 'viem/actions'
import { publicClient } from '../../lib/chain/clients'
import { rpcRequestChannel } from '../support/rpcChannels'
import { loadAuthConfig } from '../../lib/config/authConfig'
import { NETWORK_NAMES, NETWORKS } from '../../lib/networkNames'
import { functionName, type OperationName, operationsOf } from '../../lib/networks/operations'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'
import { db } from '../../lib/db/client'
import { queryNetworks } from '../../lib/db/network'
import { isTransactionCanceled } from '../../lib/db/writeConflicts'
import { UNAUTHORIZED } from '../../lib/errors'
import type { TokenUse } from '../../lib/auth/principal'
import type { Audience } from '../../lib/db/session'
import type { HttpEvent } from '../../lib/http/types'
import { NATIVE_COIN } from '../../lib/constants'
import { type TokenRealm, tokenBreakers } from '../support/badTokens'
import { httpEvent, invoke, lambdaContext, routeKeyOf } from '../support/httpEvent'
import { networkHandler } from '../support/networkRoutes'
import {
  BAD_REQUEST,
  badIdempotencyKey,
  describeValue,
  type Expected,
  hexString,
  hugeString,
  junkString,
  malformed,
  type MalformedRequest,
  NOT_FOUND,
  nonAscii,
  type RequestParts,
} from '../support/malformedRequests'
import { type SchemaBreakerOptions, schemaBreakers } from '../support/schemaBreakers'
import { randomAddress } from '../support/marketFixtures'
import { signInWithWallet } from '../support/walletSignIn'
import { TESTED_NETWORKS } from '../support/networkCases'

// The bad-input sweep (issue 6): for every HTTP route, generated requests that each break one
// thing in a valid request. Each must be answered with the error envelope and the status its
// category calls for, never a 5xx, with no stack trace or path in the body, and must write
// nothing: no DynamoDB write command and no transaction broadcast while it runs. A 400 for a
// field names it in its details. The fields' cases are derived from each route's own schemas
// (tests/support/schemaBreakers.ts, issue 42), so a schema change changes them with no edit here;
// written by hand are only the tokens, the headers and what a schema cannot say.

const RUNS_PER_ROUTE = 200
const SEED = process.env.SWEEP_SEED === undefined ? undefined : Number(process.env.SWEEP_SEED)
const TEST_PHRASE = 'test test test test test test test test test test test junk'
const OK: Expected = { status: 200 }

type Handler = (event: HttpEvent, context: Context) => Promise<unknown>

interface Session {
  subject: string
  sessionId: string
  access: string
  refresh: string
}

interface Fixtures {
  wallet: Session & { privateKey: Hex; address: Address }
  account: Session
  secret: Uint8Array
  issuer: string
  networkIds: string[]
}

interface Tally {
  tried: number
  /** 400s whose details were checked to name the field. */
  named: number
  categories: Set<string>
  statuses: Map<number, number>
  ms: number
}

interface RouteSweep {
  routeKey: string
  handler: Handler
  /** The route's malformed requests, built from the file's live sessions. */
  breakers: (fixtures: Fixtures) => fc.Arbitrary<MalformedRequest>[]
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

function realm(fixtures: Fixtures, audience: Audience, tokenUse: TokenUse): TokenRealm {
  const session = audience === 'wallet' ? fixtures.wallet : fixtures.account
  return {
    audience,
    tokenUse,
    subject: session.subject,
    sessionId: session.sessionId,
    secret: fixtures.secret,
    issuer: fixtures.issuer,
    validToken: tokenUse === 'access' ? session.access : session.refresh,
  }
}

/** Routes that take no input: whatever a client adds is ignored, so the answer is a 200. */
function ignoredInput(): fc.Arbitrary<MalformedRequest>[] {
  const key = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), nonAscii)
  return [
    fc
      .dictionary(key, fc.oneof(fc.string(), junkString), { minKeys: 1, maxKeys: 4 })
      .map((query) =>
        malformed(
          'ignored query',
          `query ${describeValue(query)}`,
          { queryStringParameters: query },
          OK,
        ),
      ),
    fc
      .jsonValue({ maxDepth: 2 })
      .map((body) => malformed('ignored body', `body ${describeValue(body)}`, { body }, OK)),
    fc
      .tuple(fc.string(), fc.constantFrom('text/plain', 'application/json', 'application/xml'))
      .map(([raw, type]) =>
        malformed(
          'ignored body',
          `${type} body ${describeValue(raw)}`,
          { rawBody: raw, headers: { 'content-type': type } },
          OK,
        ),
      ),
    fc
      .oneof(fc.string(), nonAscii, hugeString)
      .map((header) =>
        malformed(
          'ignored header',
          'Authorization junk',
          { headers: { authorization: header } },
          OK,
        ),
      ),
  ]
}

/** Path parameter ids in the right format that name nothing: 404 (read routes only). */
function unknownId(valid: RequestParts, name: string, id: fc.Arbitrary<string>) {
  return id.map((value) =>
    malformed(
      'unknown id',
      `{${name}} = ${value}`,
      { ...valid, pathParameters: { ...valid.pathParameters, [name]: value } },
      NOT_FOUND,
    ),
  )
}

// Swaps, quotes and transfers. Every field's cases come from the route's schemas
// (tests/support/schemaBreakers.ts); below, only what a schema cannot say.

type Sides = Record<'amount' | 'address0' | 'decimals0' | 'address1' | 'decimals1', unknown>

/**
 * Cross-field rules, checked in code: fields each well formed that do not fit together: a zero
 * amount, more fraction digits than decimals, one token on both sides, the native coin with other
 * than 18 decimals, an amount beyond uint256. In a query string numbers are written as text.
 */
function sideBreakers(
  valid: RequestParts,
  place: 'body' | 'query',
  native: 'any' | 'never' | 'one side',
): fc.Arbitrary<MalformedRequest>[] {
  const sides = (place === 'body' ? valid.body : valid.queryStringParameters) as Sides
  const number = (value: number) => (place === 'body' ? value : String(value))
  const request = (change: Record<string, unknown>): RequestParts => {
    const next = { ...sides, ...change }
    return place === 'body'
      ? { ...valid, body: next }
      : { ...valid, queryStringParameters: next as Record<string, string> }
  }
  const broken = (change: Record<string, unknown>) =>
    Object.entries(change)
      .map(([name, value]) => `${name}=${describeValue(value)}`)
      .join(', ')
  const variants: fc.Arbitrary<Record<string, unknown>>[] = [
    fc.constantFrom('0', '0.0', '000.000').map((amount) => ({ amount })),
    fc.integer({ min: 0, max: 17 }).map((decimals) => ({
      address0: randomAddress(),
      decimals0: number(decimals),
      amount: `1.${'5'.repeat(decimals + 1)}`,
    })),
    fc.constant({ address0: randomAddress(), decimals0: number(36), amount: '9'.repeat(78) }),
    fc.constant({ address1: sides.address0 }),
    fc
      .integer({ min: 0, max: 36 })
      .filter((decimals) => decimals !== 18)
      .map((decimals) => ({ address1: NATIVE_COIN, decimals1: number(decimals) })),
  ]
  if (native === 'never') {
    variants.push(fc.constant({ address1: NATIVE_COIN.toLowerCase(), decimals1: number(18) }))
  }
  if (native === 'one side') {
    variants.push(fc.constant({ address0: randomAddress(), decimals0: number(18) }))
  }
  return [
    fc
      .oneof(...variants)
      .map((change) =>
        malformed('fields that do not fit', broken(change), request(change), BAD_REQUEST),
      ),
  ]
}

/** A usable key of some other wallet: 401004, the key must control the token's wallet. */
function otherWalletKey(valid: RequestParts, own: Hex): fc.Arbitrary<MalformedRequest> {
  return fc
    .tuple(hexString(64, 64), fc.constantFrom('0x', ''), fc.boolean())
    .filter(([hex]) => /[1-9a-f]/i.test(hex) && !/^f{8}/i.test(hex))
    .map(([hex, prefix, upper]) => `${prefix}${upper ? hex.toUpperCase() : hex.toLowerCase()}`)
    .filter((key) => !key.toLowerCase().endsWith(own.slice(2)))
    .map((key) =>
      malformed(
        'key of another wallet',
        '{key} controls another wallet',
        { ...valid, pathParameters: { key } },
        { status: 401, code: UNAUTHORIZED.credentialsRejected },
        [key],
      ),
    )
}

const SECP256K1_ORDER = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'

/**
 * 64 hex digits that are no secp256k1 key (zero, the group order and above): the schema's
 * pattern takes them, the key's own check refuses them.
 */
function notAScalar(valid: RequestParts, place: 'params' | 'body', name: string) {
  return (
    fc
      .constantFrom(
        `0x${'0'.repeat(64)}`,
        '0'.repeat(64),
        `0x${'f'.repeat(64)}`,
        `0x${SECP256K1_ORDER}`,
        SECP256K1_ORDER.toUpperCase(),
      )
      .map((key) =>
        malformed(
          'not a key',
          `${place}.${name} is no secp256k1 scalar`,
          place === 'params'
            ? { ...valid, pathParameters: { ...valid.pathParameters, [name]: key } }
            : { ...valid, body: { ...(valid.body as object), [name]: key } },
          BAD_REQUEST,
          [key],
        ),
      )
      // Refused by the key's own check, which gives no details: its message names the key.
      .map((request) => ({ ...request, says: /private key/ }))
  )
}

/** The Idempotency-Key header: a header, not in any schema, checked in code. */
function badIdempotencyHeader(valid: RequestParts): fc.Arbitrary<MalformedRequest> {
  return badIdempotencyKey.map((key) =>
    malformed(
      'bad Idempotency-Key',
      `Idempotency-Key ${describeValue(key)}`,
      { ...valid, headers: { ...valid.headers, 'idempotency-key': key } },
      BAD_REQUEST,
    ),
  )
}

/** `key`: a `{key}` route; `client`: its prepare route (the same body, no key, no idempotency). */
type Signing = 'key' | 'client'

function executingBreakers(
  fixtures: Fixtures,
  handler: Handler,
  valid: RequestParts,
  extra: fc.Arbitrary<MalformedRequest>[],
  signing: Signing = 'key',
): fc.Arbitrary<MalformedRequest>[] {
  const generated = [
    ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
    ...schemaBreakers(handler, valid, { secretFields: ['key'] }),
    ...extra,
  ]
  if (signing === 'client') return generated
  return [
    ...generated,
    notAScalar(valid, 'params', 'key'),
    otherWalletKey(valid, fixtures.wallet.privateKey),
    badIdempotencyHeader(valid),
  ]
}

function swapRoute(
  routeKey: string,
  handler: Handler,
  native: 'any' | 'never' | 'one side',
  signing: Signing = 'key',
): RouteSweep {
  return {
    routeKey,
    handler,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        ...(signing === 'key' && { pathParameters: { key: fixtures.wallet.privateKey } }),
        headers: bearer(fixtures.wallet.access),
        body: {
          amount: '1.5',
          address0: native === 'one side' ? NATIVE_COIN : randomAddress(),
          decimals0: 18,
          address1: randomAddress(),
          decimals1: 6,
          slippageBps: 50,
          deadlineSeconds: 600,
        },
      }
      const misfits = sideBreakers(valid, 'body', native)
      return executingBreakers(fixtures, handler, valid, misfits, signing)
    },
  }
}

function quoteRoute(routeKey: string, handler: Handler): RouteSweep {
  return {
    routeKey,
    handler,
    breakers: () => {
      const valid: RequestParts = {
        queryStringParameters: {
          amount: '1.5',
          address0: randomAddress(),
          decimals0: '18',
          address1: randomAddress(),
          decimals1: '6',
          slippageBps: '50',
          recipient: randomAddress(),
        },
      }
      return [...schemaBreakers(handler, valid), ...sideBreakers(valid, 'query', 'any')]
    },
  }
}

function transferRoute(routeKey: string, handler: Handler, signing: Signing = 'key'): RouteSweep {
  return {
    routeKey,
    handler,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        ...(signing === 'key' && { pathParameters: { key: fixtures.wallet.privateKey } }),
        headers: bearer(fixtures.wallet.access),
        body: { to: randomAddress(), amount: '2.5', token: randomAddress(), decimals: 6 },
      }
      const body = valid.body as Record<string, unknown>
      // Cross-field rules, checked in code: amounts and decimals that do not fit the token.
      const misfit = fc
        .oneof(
          fc.constantFrom('0', '0.00').map((amount) => ({ ...body, amount })),
          fc
            .integer({ min: 0, max: 35 })
            .map((decimals) => ({ ...body, decimals, amount: `1.${'1'.repeat(decimals + 1)}` })),
          fc
            .integer({ min: 0, max: 36 })
            .filter((decimals) => decimals !== 18)
            .map((decimals) => {
              const { token: _token, ...native } = body
              return { ...native, decimals }
            }),
          fc.constant({ ...body, token: NATIVE_COIN, decimals: 6 }),
          fc.constant({ ...body, decimals: 36, amount: '9'.repeat(78) }),
        )
        .map((next) =>
          malformed(
            'fields that do not fit',
            describeValue(next),
            { ...valid, body: next },
            BAD_REQUEST,
          ),
        )
      // Sending to the zero address burns: a well-formed address, refused by its own check.
      const burn = fc.constant(
        malformed(
          'burn address',
          'body.to is the zero address',
          { ...valid, body: { ...body, to: zeroAddress } },
          BAD_REQUEST,
          [],
          'body.to',
        ),
      )
      return executingBreakers(fixtures, handler, valid, [misfit, burn], signing)
    },
  }
}

/** A submit route: `transactions` must be 1 to 3 signed transactions in hex (its schema). */
function submitRoute(routeKey: string, handler: Handler): RouteSweep {
  return {
    routeKey,
    handler,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        headers: bearer(fixtures.wallet.access),
        body: { transactions: [`0x02${'ab'.repeat(100)}`] },
      }
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...schemaBreakers(handler, valid),
        // Well-formed hex that is no signed transaction: refused when decoded (in code), before
        // any read.
        fc
          .array(hexString(2, 400), { minLength: 1, maxLength: 3 })
          .map((hexes) => hexes.map((hex) => `0x${hex.length % 2 ? `0${hex}` : hex}`))
          .map((transactions) =>
            malformed(
              'not a signed transaction',
              `${transactions.length} hex strings`,
              { ...valid, body: { transactions } },
              BAD_REQUEST,
            ),
          ),
        badIdempotencyHeader(valid),
      ]
    },
  }
}

// Ids.

function projectRoute(
  routeKey: string,
  handler: Handler,
  auth: 'none' | 'wallet' | 'account',
  options: { unknownIsNotFound: boolean },
): RouteSweep {
  return {
    routeKey,
    handler,
    breakers: (fixtures) => {
      const session = auth === 'account' ? fixtures.account : fixtures.wallet
      const valid: RequestParts = {
        pathParameters: { projectId: randomUUID() },
        ...(auth !== 'none' && { headers: bearer(session.access) }),
      }
      return [
        ...(auth === 'none' ? [] : tokenBreakers(valid, realm(fixtures, auth, 'access'))),
        ...schemaBreakers(handler, valid),
        // Watching or unwatching an unknown project is a conditional write by design: left out.
        ...(options.unknownIsNotFound ? [unknownId(valid, 'projectId', fc.uuid())] : []),
      ]
    },
  }
}

function tokenOnlyRoute(
  routeKey: string,
  handler: Handler,
  audience: Audience,
  use: TokenUse,
): RouteSweep {
  return {
    routeKey,
    handler,
    breakers: (fixtures) => {
      const session = audience === 'wallet' ? fixtures.wallet : fixtures.account
      const valid = { headers: bearer(use === 'access' ? session.access : session.refresh) }
      return tokenBreakers(valid, realm(fixtures, audience, use))
    },
  }
}

/** A route whose input is its schemas' alone: every case generated. */
function schemaRoute(
  routeKey: string,
  handler: Handler,
  valid: RequestParts,
  options?: SchemaBreakerOptions,
): RouteSweep {
  return { routeKey, handler, breakers: () => schemaBreakers(handler, valid, options) }
}

const WORDS = new Set(wordlist)

const mnemonicBody = (routeKey: string, handler: Handler): RouteSweep => ({
  routeKey,
  handler,
  breakers: () => {
    const valid: RequestParts = { body: { mnemonic: TEST_PHRASE, index: 0 } }
    const word = fc.constantFrom(...wordlist)
    const phrase = fc.array(word, { minLength: 12, maxLength: 12 })
    // The schema's pattern says 12 to 24 words of letters; the word list and the checksum are
    // checked in code.
    const unchecked = fc
      .oneof(
        fc
          .tuple(phrase, fc.integer({ min: 0, max: 11 }), fc.stringMatching(/^[a-z]{1,10}$/))
          .filter(([, , unknown]) => !WORDS.has(unknown))
          .map(([words, at, unknown]) => words.with(at, unknown).join(' ')),
        phrase.map((words) => words.join(' ')).filter((m) => !validateMnemonic(m, wordlist)),
      )
      .map((mnemonic) =>
        malformed(
          'not a phrase',
          'body.mnemonic off the word list or its checksum',
          { body: { mnemonic, index: 0 } },
          BAD_REQUEST,
          [mnemonic],
        ),
      )
      // Refused by the phrase's own check, which gives no details: its message names the phrase.
      .map((request) => ({ ...request, says: /mnemonic|BIP39/ }))
    return [...schemaBreakers(handler, valid, { secretFields: ['mnemonic'] }), unchecked]
  },
})

const accountBody = (routeKey: string, handler: Handler): RouteSweep =>
  schemaRoute(
    routeKey,
    handler,
    { body: { username: `sweep_${randomUUID().slice(0, 8)}`, password: 'a valid password' } },
    { secretFields: ['password'] },
  )

/** Every network's routes (lib/networks/operations.ts), each swept as its operation is. */
const NETWORK_SWEEPS: RouteSweep[] = await Promise.all(
  TESTED_NETWORKS.flatMap((network) => {
    // The tokens route takes the native coin unless the network has a native route of its own.
    const tokensSide = NETWORKS[network].routes.nativeSwapRoute ? 'never' : 'any'
    return operationsOf(NETWORKS[network].routes).map(async (operation) => {
      const routeKey = routeKeyOf(functionName(operation.name, network))
      const handler = await networkHandler(operation.name, network)
      const sweeps: Record<OperationName, () => RouteSweep> = {
        quote: () => quoteRoute(routeKey, handler),
        swapTokens: () => swapRoute(routeKey, handler, tokensSide),
        swapNative: () => swapRoute(routeKey, handler, 'one side'),
        transfer: () => transferRoute(routeKey, handler),
        prepareSwapTokens: () => swapRoute(routeKey, handler, tokensSide, 'client'),
        prepareSwapNative: () => swapRoute(routeKey, handler, 'one side', 'client'),
        prepareTransfer: () => transferRoute(routeKey, handler, 'client'),
        submit: () => submitRoute(routeKey, handler),
      }
      return sweeps[operation.name]()
    })
  }),
)

const ROUTES: RouteSweep[] = [
  { routeKey: 'GET /api/v1/networks', handler: listNetworks, breakers: ignoredInput },
  schemaRoute('GET /api/v1/auth/nonce/{address}', getNonce, {
    pathParameters: { address: randomAddress() },
  }),
  schemaRoute('POST /api/v1/auth/login', loginWallet, {
    body: { address: randomAddress(), signature: `0x${'ab'.repeat(65)}` },
  }),
  tokenOnlyRoute('GET /api/v1/auth/refresh', refreshWalletSession, 'wallet', 'refresh'),
  tokenOnlyRoute('DELETE /api/v1/auth/logout', logoutWallet, 'wallet', 'access'),
  { routeKey: 'GET /api/v1/wallet/mnemonic', handler: generateMnemonic, breakers: ignoredInput },
  mnemonicBody('POST /api/v1/wallet/create', createWallet),
  mnemonicBody('POST /api/v1/wallet/recover/mnemonic', recoverWalletFromMnemonic),
  {
    routeKey: 'POST /api/v1/wallet/recover/key',
    handler: recoverWalletFromKey,
    breakers: () => {
      const valid: RequestParts = { body: { privateKey: generatePrivateKey() } }
      return [
        ...schemaBreakers(recoverWalletFromKey, valid, { secretFields: ['privateKey'] }),
        notAScalar(valid, 'body', 'privateKey'),
      ]
    },
  },
  accountBody('POST /api/v1/account/register', registerAccount),
  accountBody('POST /api/v1/account/login', loginAccount),
  tokenOnlyRoute('GET /api/v1/account/refresh', refreshAccountSession, 'account', 'refresh'),
  tokenOnlyRoute('DELETE /api/v1/account/logout', logoutAccount, 'account', 'access'),
  schemaRoute('GET /api/v1/swap/tokens', listTokens, {
    queryStringParameters: { sort: 'name', direction: 'asc', limit: '10', offset: '0' },
  }),
  ...NETWORK_SWEEPS,
  {
    routeKey: 'POST /api/v1/networks/wallet',
    handler: attachWalletNetworks,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        headers: bearer(fixtures.wallet.access),
        body: { networkIds: [] },
      }
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...schemaBreakers(attachWalletNetworks, valid),
        // Ids in the right format that name no network: looked up in code, 404.
        fc
          .array(fc.uuid(), { minLength: 1, maxLength: 5 })
          .filter((ids) => !ids.some((id) => fixtures.networkIds.includes(id)))
          .map((networkIds) =>
            malformed(
              'unknown id',
              `${networkIds.length} unknown network ids`,
              { ...valid, body: { networkIds } },
              NOT_FOUND,
            ),
          ),
      ]
    },
  },
  tokenOnlyRoute('GET /api/v1/networks/wallet/balance', getWalletBalances, 'wallet', 'access'),
  {
    routeKey: 'GET /api/v1/swap/approval/{network}',
    handler: getApproval,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        headers: bearer(fixtures.wallet.access),
        pathParameters: { network: 'ethereum' },
        queryStringParameters: {
          token: randomAddress(),
          amount: '1000000',
          owner: randomAddress(),
        },
      }
      const query = valid.queryStringParameters
      // Base units from 1 to 2^256 - 1: the pattern takes 78 digits, zero and beyond are refused
      // by the amount's own check.
      const outOfUint256 = fc
        .constantFrom('0', '000', (maxUint256 + 1n).toString(), '9'.repeat(78))
        .map((amount) =>
          malformed(
            'query parameter',
            `amount=${amount}`,
            { ...valid, queryStringParameters: { ...query, amount } },
            BAD_REQUEST,
            [],
            'query.amount',
          ),
        )
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...schemaBreakers(getApproval, valid),
        outOfUint256,
      ]
    },
  },
  tokenOnlyRoute('GET /api/v1/watchlist/projects', listWatchlist, 'wallet', 'access'),
  tokenOnlyRoute('POST /api/v1/ws/ticket', createWsTicket, 'wallet', 'access'),
  projectRoute('POST /api/v1/watchlist/{projectId}', addToWatchlist, 'wallet', {
    unknownIsNotFound: false,
  }),
  projectRoute('DELETE /api/v1/watchlist/{projectId}', removeFromWatchlist, 'wallet', {
    unknownIsNotFound: false,
  }),
  projectRoute('GET /api/v1/project/{projectId}', getProjectDetails, 'account', {
    unknownIsNotFound: true,
  }),
  projectRoute('GET /api/v1/price/history/daily/{projectId}', getDailyPriceHistory, 'none', {
    unknownIsNotFound: true,
  }),
  projectRoute('GET /api/v1/price/history/monthly/{projectId}', getMonthlyPriceHistory, 'none', {
    unknownIsNotFound: true,
  }),
  projectRoute('GET /api/v1/price/history/yearly/{projectId}', getYearlyPriceHistory, 'none', {
    unknownIsNotFound: true,
  }),
  {
    routeKey: 'GET /api/v1/trades',
    handler: listTrades,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        headers: bearer(fixtures.wallet.access),
        queryStringParameters: { limit: '10', offset: '0', sort: 'createdAt', direction: 'DESC' },
      }
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...schemaBreakers(listTrades, valid),
      ]
    },
  },
  {
    routeKey: 'GET /api/v1/trade/hash/{hash}',
    handler: getTradeByHash,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        headers: bearer(fixtures.wallet.access),
        pathParameters: { hash: `0x${'ab'.repeat(32)}` },
      }
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...schemaBreakers(getTradeByHash, valid),
        unknownId(
          valid,
          'hash',
          hexString(64, 64).map((hex) => `0x${hex}`),
        ),
      ]
    },
  },
  {
    routeKey: 'GET /api/v1/trade/id/{tradeId}',
    handler: getTradeById,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        headers: bearer(fixtures.wallet.access),
        pathParameters: { tradeId: randomUUID() },
      }
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...schemaBreakers(getTradeById, valid),
        unknownId(valid, 'tradeId', fc.uuid()),
      ]
    },
  },
]

// Sending and checking.

function eventFor(routeKey: string, parts: RequestParts): HttpEvent {
  const event = httpEvent({
    routeKey,
    queryStringParameters: parts.queryStringParameters,
    headers: parts.headers,
    body: parts.body,
    rawBody: parts.rawBody,
  })
  // Set apart from httpEvent, whose raw path encoding throws on a lone surrogate.
  event.pathParameters = parts.pathParameters
  for (const name of parts.omitHeaders ?? []) delete event.headers[name]
  if (parts.isBase64Encoded) event.isBase64Encoded = true
  return event
}

const WRITE_COMMAND = /^(Put|Update|Delete|TransactWrite|BatchWrite)(Item)?Command$/
const BROADCAST_METHODS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction'])
// A stack frame, a source path or an AWS error name in a body means an internal error leaked.
const LEAK =
  /\bat \S+ \(|\bat (file:|node:|\/)|node_modules|\/work\/|file:\/\/|\.[cm]?[jt]s:\d+|\w+Exception\b/

/**
 * The per-IP budget's counter (DECISIONS §7.1) is taken before anything is parsed, on purpose:
 * it is the one write a malformed request to an anonymous credential route may cost.
 */
function isClientBudgetCount(call: unknown[]): boolean {
  const input = (call[0] as { input?: { Key?: { pk?: unknown } } } | undefined)?.input
  const pk = input?.Key?.pk
  return typeof pk === 'string' && pk.startsWith('CLIENT#')
}

function isRefusedCondition(error: unknown): boolean {
  return (
    isTransactionCanceled(error) ||
    (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException'
  )
}

function commandName(call: unknown[]): string {
  const command = call[0]
  return typeof command === 'object' && command !== null
    ? command.constructor.name
    : String(command)
}

function rpcMethods(body: unknown): string[] {
  if (typeof body !== 'string') return []
  try {
    const parsed = JSON.parse(body) as { method?: string } | { method?: string }[]
    return (Array.isArray(parsed) ? parsed : [parsed]).map(({ method }) => String(method))
  } catch {
    return []
  }
}

/** Every string in a parsed body: messages, detail paths. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsOf)
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsOf(inner)])
  }
  return []
}

function expectEnvelope(body: unknown, expected: Expected): void {
  if (expected.status === 200) {
    expect(body).toEqual({ ok: true, result: expect.any(Object) })
    return
  }
  const details = (body as { error?: { details?: unknown } }).error?.details
  expect(body).toStrictEqual({
    ok: false,
    error: {
      code: expected.code ?? expected.status,
      message: expect.stringMatching(/\S/),
      ...(details !== undefined && { details: expect.any(Array) }),
    },
  })
  for (const detail of (details ?? []) as unknown[]) {
    expect(detail).toStrictEqual({ path: expect.any(String), message: expect.any(String) })
  }
}

describe('bad input on every route', () => {
  let fixtures: Fixtures
  let fixtureSecrets: string[]
  let dbSend: MockInstance
  // Every JSON-RPC body the service's transport sends (its diagnostics channel).
  const rpcBodies: unknown[] = []
  const onRpcRequest = (body: unknown) => rpcBodies.push(body)
  const tally = new Map<string, Tally>()

  beforeAll(async () => {
    const walletKey = generatePrivateKey()
    const wallet = await signInWithWallet(walletKey)
    const credentials = { username: `sweep_${randomUUID().slice(0, 8)}`, password: randomUUID() }
    await invoke(registerAccount, httpEvent({ route: 'registerAccount', body: credentials }))
    const login = await invoke(
      loginAccount,
      httpEvent({ route: 'loginAccount', body: credentials }),
    )
    const { token } = login.body.result as { token: { access: string; refresh: string } }
    const session = (access: string, refresh: string): Session => {
      const claims = decodeJwt(access)
      return { subject: String(claims.sub), sessionId: String(claims.sid), access, refresh }
    }
    fixtures = {
      wallet: {
        ...session(wallet.access, wallet.refresh),
        privateKey: walletKey,
        address: wallet.address,
      },
      account: session(token.access, token.refresh),
      secret: await jwtSecret(),
      issuer: loadAuthConfig().issuer,
      networkIds: (await queryNetworks()).map((network) => network.id),
    }
    fixtureSecrets = [
      walletKey,
      walletKey.slice(2),
      wallet.access,
      wallet.refresh,
      token.access,
      token.refresh,
    ]
    // Pass-through spies: they record what each request sends and change nothing.
    dbSend = vi.spyOn(db(), 'send')
    rpcRequestChannel.subscribe(onRpcRequest)
  })

  afterAll(() => {
    vi.restoreAllMocks()
    rpcRequestChannel.unsubscribe(onRpcRequest)
    const statuses = [...new Set([...tally.values()].flatMap((row) => [...row.statuses.keys()]))]
    statuses.sort((a, b) => a - b)
    const width = Math.max(...[...tally.keys()].map((route) => route.length))
    const cells = (values: (string | number)[]) =>
      values.map((value) => String(value).padStart(6)).join('')
    const total = (pick: (row: Tally) => number) =>
      [...tally.values()].reduce((sum, row) => sum + pick(row), 0)
    const lines = [
      `${'route'.padEnd(width)}${cells(['tried', 'kinds', 'named', ...statuses, 'ms'])}`,
      ...[...tally].map(
        ([route, row]) =>
          `${route.padEnd(width)}${cells([
            row.tried,
            row.categories.size,
            row.named,
            ...statuses.map((status) => row.statuses.get(status) ?? ''),
            Math.round(row.ms),
          ])}`,
      ),
      `${'all routes'.padEnd(width)}${cells([
        total((row) => row.tried),
        '',
        total((row) => row.named),
        ...statuses.map((status) => total((row) => row.statuses.get(status) ?? 0)),
        Math.round(total((row) => row.ms)),
      ])}`,
    ]
    // The figures the issue asks for: requests tried per route, and how each was answered.
    console.log(`malformed requests per route, by status:\n${lines.join('\n')}`)
  })

  it('covers every /api/v1 route of serverless.yml', () => {
    // Each network operation's block made a function per network, as the deploy rules make it.
    const declared = declaredFunctions().flatMap((fn) =>
      fn.route ? [`${fn.route.method} ${fn.route.path}`] : [],
    )

    // A network's routes are swept where TEST_NETWORKS names it (tests/support/networkCases.ts).
    const untested = new Set(
      NETWORK_NAMES.filter((network) => !TESTED_NETWORKS.includes(network)).flatMap((network) =>
        operationsOf(NETWORKS[network].routes).map((operation) =>
          routeKeyOf(functionName(operation.name, network)),
        ),
      ),
    )

    expect(ROUTES.map((route) => route.routeKey).sort()).toEqual(
      declared.filter((route) => route.includes(' /api/v1/') && !untested.has(route)).sort(),
    )
  })

  it('sees the writes and broadcasts it looks for', async () => {
    const sends = dbSend.mock.calls.length
    const fetches = rpcBodies.length

    await invoke(
      getNonce,
      httpEvent({
        route: 'getNonce',
        pathParameters: { address: randomAddress() },
      }),
    )
    await sendRawTransaction(publicClient('ethereum'), { serializedTransaction: '0x02' }).catch(
      () => undefined,
    )

    expect(dbSend.mock.calls.slice(sends).map(commandName)).toContainEqual(
      expect.stringMatching(WRITE_COMMAND),
    )
    expect(rpcBodies.slice(fetches).flatMap(rpcMethods)).toContain('eth_sendRawTransaction')
  })

  /** Sends one malformed request and checks the answer, and that nothing was written. */
  async function sendMalformed(route: RouteSweep, request: MalformedRequest, row: Tally) {
    const sends = dbSend.mock.calls.length
    const fetches = rpcBodies.length

    const response = (await route.handler(
      eventFor(route.routeKey, request.request),
      lambdaContext(),
    )) as { statusCode: number; headers?: Record<string, unknown>; body: string }

    row.tried += 1
    row.statuses.set(response.statusCode, (row.statuses.get(response.statusCode) ?? 0) + 1)
    // A conditional write the table refused changed nothing (a refresh's rotation or a logout's
    // delete that a concurrent one beat).
    const outcomes = await Promise.allSettled(
      dbSend.mock.results.slice(sends).map((result) => result.value as unknown),
    )
    const writes = dbSend.mock.calls
      .slice(sends)
      .filter((call, index) => {
        const outcome = outcomes[index]
        return (
          !isClientBudgetCount(call) &&
          !(outcome?.status === 'rejected' && isRefusedCondition(outcome.reason))
        )
      })
      .map(commandName)
      .filter((name) => WRITE_COMMAND.test(name))
    const broadcasts = rpcBodies
      .slice(fetches)
      .flatMap(rpcMethods)
      .filter((method) => BROADCAST_METHODS.has(method))
    expect({ status: response.statusCode, writes, broadcasts }).toEqual({
      status: request.expected.status,
      writes: [],
      broadcasts: [],
    })
    expect(response.headers?.['content-type']).toMatch(/^application\/json/)
    const body: unknown = JSON.parse(response.body)
    expectEnvelope(body, request.expected)
    if (request.says !== undefined) {
      expect((body as { error: { message: string } }).error.message).toMatch(request.says)
    }
    if (request.expected.status === 400 && request.field !== undefined) {
      const field = request.field
      const paths = ((body as { error: { details?: { path: string }[] } }).error.details ?? []).map(
        (detail) => detail.path,
      )
      row.named += 1
      // The details name the field: its own path, or one under it (an array's item).
      expect({ field, paths }).toEqual({
        field,
        paths: expect.arrayContaining([
          expect.toSatisfy((path: string) => path === field || path.startsWith(`${field}.`)),
        ]),
      })
    }
    expect(response.body).not.toMatch(LEAK)
    const echoed = stringsOf(body)
    for (const secret of [...request.secrets, ...fixtureSecrets]) {
      expect(echoed.filter((text) => text.includes(secret))).toEqual([])
    }
  }

  it.each(ROUTES)(
    '$routeKey refuses each malformed request with a 4xx envelope and writes nothing',
    async (route) => {
      const row: Tally = { tried: 0, named: 0, categories: new Set(), statuses: new Map(), ms: 0 }
      tally.set(route.routeKey, row)
      const started = performance.now()

      // The runs are split evenly between the kinds of breakage, so that each is tried.
      const breakers = route.breakers(fixtures)
      const runs = Math.ceil(RUNS_PER_ROUTE / breakers.length)
      for (const breaker of breakers) {
        await fc.assert(
          fc.asyncProperty(breaker, async (request) => {
            row.categories.add(request.category)
            await sendMalformed(route, request, row)
          }),
          { numRuns: runs, seed: SEED },
        )
      }

      row.ms = performance.now() - started
      expect(row.tried).toBeGreaterThanOrEqual(RUNS_PER_ROUTE)
    },
  )

  it('broadcast nothing from the signed-in wallet on any network', async () => {
    for (const network of NETWORK_NAMES) {
      const nonce = await getTransactionCount(publicClient(network), {
        address: fixtures.wallet.address,
        blockTag: 'pending',
      })
      expect(nonce).toBe(0)
    }
  })
})
