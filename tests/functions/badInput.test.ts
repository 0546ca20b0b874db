import '../support/env'
import type { Context } from 'aws-lambda'
import * as fc from 'fast-check'
import { decodeJwt } from 'jose'
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
  badAddress,
  badAmount,
  badAmountString,
  badDirection,
  badEnumString,
  badHash,
  badIdempotencyKey,
  badInteger,
  badIntegerString,
  badMnemonic,
  badPassword,
  badPrivateKey,
  badSignature,
  badUsername,
  badUuid,
  describeValue,
  type Expected,
  type FieldRule,
  hexString,
  hugeString,
  junkString,
  malformed,
  type MalformedRequest,
  NOT_FOUND,
  nonAscii,
  pathBreakers,
  queryBreakers,
  type RequestParts,
  bodyBreakers,
  wrongType,
} from '../support/malformedRequests'
import { randomAddress } from '../support/marketFixtures'
import { signInWithWallet } from '../support/walletSignIn'
import { TESTED_NETWORKS } from '../support/networkCases'

// The bad-input sweep (issue 6): for every HTTP route, generated requests that each break one
// thing in a valid request. Each must be answered with the error envelope and the status its
// category calls for, never a 5xx, with no stack trace or path in the body, and must write
// nothing: no DynamoDB write command and no transaction broadcast while it runs.

const RUNS_PER_ROUTE = 200
const SEED = process.env.SWEEP_SEED === undefined ? undefined : Number(process.env.SWEEP_SEED)
const TEST_PHRASE = 'test test test test test test test test test test test junk'
// Bounds are the contract's (DECISIONS §3, §4), not imported from the schemas under test.
const MAX_WALLET_INDEX = 2 ** 31 - 1
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

// Swaps, quotes and transfers.

const addressRule: FieldRule = { bad: fc.oneof(badAddress, wrongType('string')), required: true }

const SWAP_RULES: Record<string, FieldRule> = {
  amount: { bad: badAmount, required: true },
  address0: addressRule,
  decimals0: { bad: badInteger(0, 36), required: true },
  address1: addressRule,
  decimals1: { bad: badInteger(0, 36), required: true },
  slippageBps: { bad: badInteger(0, 5000) },
  deadlineSeconds: { bad: badInteger(60, 3600) },
}

const QUOTE_RULES: Record<string, FieldRule> = {
  amount: { bad: badAmountString, required: true },
  address0: { bad: badAddress, required: true },
  decimals0: { bad: badIntegerString(0, 36), required: true },
  address1: { bad: badAddress, required: true },
  decimals1: { bad: badIntegerString(0, 36), required: true },
  slippageBps: { bad: badIntegerString(0, 5000) },
  recipient: { bad: badAddress },
}

type Sides = Record<'amount' | 'address0' | 'decimals0' | 'address1' | 'decimals1', unknown>

/**
 * Requests whose fields are each well formed but do not fit together: a zero amount, more
 * fraction digits than decimals, one token on both sides, the native coin with other than 18
 * decimals, an amount beyond uint256. In a query string numbers are written as text.
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

/** `key`: a `{key}` route; `client`: its prepare route (the same body, no key, no idempotency). */
type Signing = 'key' | 'client'

function executingBreakers(
  fixtures: Fixtures,
  valid: RequestParts,
  rules: Record<string, FieldRule>,
  extra: fc.Arbitrary<MalformedRequest>[],
  signing: Signing = 'key',
): fc.Arbitrary<MalformedRequest>[] {
  if (signing === 'client') {
    return [
      ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
      ...bodyBreakers(valid, rules),
      ...extra,
    ]
  }
  return [
    ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
    ...pathBreakers(valid, 'key', badPrivateKey, { secret: true }),
    otherWalletKey(valid, fixtures.wallet.privateKey),
    ...bodyBreakers(valid, rules),
    ...extra,
    badIdempotencyKey.map((key) =>
      malformed(
        'bad Idempotency-Key',
        `Idempotency-Key ${describeValue(key)}`,
        { ...valid, headers: { ...valid.headers, 'idempotency-key': key } },
        BAD_REQUEST,
      ),
    ),
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
      return executingBreakers(fixtures, valid, SWAP_RULES, misfits, signing)
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
      return [
        ...queryBreakers(valid, QUOTE_RULES, { strict: true }),
        ...sideBreakers(valid, 'query', 'any'),
      ]
    },
  }
}

const TRANSFER_RULES: Record<string, FieldRule> = {
  to: {
    // Sending to the zero address burns: refused like a malformed address.
    bad: fc.oneof(badAddress, wrongType('string'), fc.constant(zeroAddress)),
    required: true,
  },
  amount: { bad: badAmount, required: true },
  token: { bad: fc.oneof(badAddress, wrongType('string')) },
  decimals: { bad: badInteger(0, 36) },
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
      return executingBreakers(fixtures, valid, TRANSFER_RULES, [misfit], signing)
    },
  }
}

/** A submit route: `transactions` must be 1 to 3 signed transactions in hex (2 KB each). */
function submitRoute(routeKey: string, handler: Handler): RouteSweep {
  return {
    routeKey,
    handler,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        headers: bearer(fixtures.wallet.access),
        body: { transactions: [`0x02${'ab'.repeat(100)}`] },
      }
      const badHex = fc.oneof(
        wrongType('string'),
        fc.constantFrom('', '0x', '0x0', '0xabc', 'zz', '02ab', `0x${'ab'.repeat(2049)}`),
      )
      const badTransactions = fc.oneof(
        wrongType('array'),
        fc.constant([]),
        fc.array(fc.constant('0x02ab'), { minLength: 4, maxLength: 8 }),
        fc.array(badHex, { minLength: 1, maxLength: 3 }),
      )
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...bodyBreakers(valid, { transactions: { bad: badTransactions, required: true } }),
        // Well-formed hex that is no signed transaction: refused when decoded, before any read.
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
        badIdempotencyKey.map((key) =>
          malformed(
            'bad Idempotency-Key',
            `Idempotency-Key ${describeValue(key)}`,
            { ...valid, headers: { ...valid.headers, 'idempotency-key': key } },
            BAD_REQUEST,
          ),
        ),
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
        ...pathBreakers(valid, 'projectId', badUuid),
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

const mnemonicBody = (routeKey: string, handler: Handler): RouteSweep => ({
  routeKey,
  handler,
  breakers: () =>
    bodyBreakers(
      { body: { mnemonic: TEST_PHRASE, index: 0 } },
      {
        mnemonic: { bad: badMnemonic, required: true },
        index: { bad: badInteger(0, MAX_WALLET_INDEX) },
      },
      { secretFields: ['mnemonic'] },
    ),
})

const accountBody = (routeKey: string, handler: Handler, passwordMin: number): RouteSweep => ({
  routeKey,
  handler,
  breakers: () =>
    bodyBreakers(
      { body: { username: `sweep_${randomUUID().slice(0, 8)}`, password: 'a valid password' } },
      {
        username: { bad: badUsername, required: true },
        password: { bad: badPassword(passwordMin, 128), required: true },
      },
      { secretFields: ['password'] },
    ),
})

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
  {
    routeKey: 'GET /api/v1/auth/nonce/{address}',
    handler: getNonce,
    breakers: () =>
      pathBreakers({ pathParameters: { address: randomAddress() } }, 'address', badAddress),
  },
  {
    routeKey: 'POST /api/v1/auth/login',
    handler: loginWallet,
    breakers: () =>
      bodyBreakers(
        { body: { address: randomAddress(), signature: `0x${'ab'.repeat(65)}` } },
        { address: addressRule, signature: { bad: badSignature, required: true } },
      ),
  },
  tokenOnlyRoute('GET /api/v1/auth/refresh', refreshWalletSession, 'wallet', 'refresh'),
  tokenOnlyRoute('DELETE /api/v1/auth/logout', logoutWallet, 'wallet', 'access'),
  { routeKey: 'GET /api/v1/wallet/mnemonic', handler: generateMnemonic, breakers: ignoredInput },
  mnemonicBody('POST /api/v1/wallet/create', createWallet),
  mnemonicBody('POST /api/v1/wallet/recover/mnemonic', recoverWalletFromMnemonic),
  {
    routeKey: 'POST /api/v1/wallet/recover/key',
    handler: recoverWalletFromKey,
    breakers: () =>
      bodyBreakers(
        { body: { privateKey: generatePrivateKey() } },
        { privateKey: { bad: fc.oneof(badPrivateKey, wrongType('string')), required: true } },
        { secretFields: ['privateKey'] },
      ),
  },
  accountBody('POST /api/v1/account/register', registerAccount, 8),
  accountBody('POST /api/v1/account/login', loginAccount, 1),
  tokenOnlyRoute('GET /api/v1/account/refresh', refreshAccountSession, 'account', 'refresh'),
  tokenOnlyRoute('DELETE /api/v1/account/logout', logoutAccount, 'account', 'access'),
  {
    routeKey: 'GET /api/v1/swap/tokens',
    handler: listTokens,
    breakers: () =>
      queryBreakers(
        { queryStringParameters: { sort: 'name', direction: 'asc', limit: '10', offset: '0' } },
        {
          sort: { bad: badEnumString(['network', 'name', 'symbol', 'decimals', 'createdAt']) },
          direction: { bad: badDirection },
          limit: { bad: badIntegerString(1, 100) },
          offset: { bad: badIntegerString(0, Number.MAX_SAFE_INTEGER) },
        },
        { strict: false },
      ),
  },
  ...NETWORK_SWEEPS,
  {
    routeKey: 'POST /api/v1/networks/wallet',
    handler: attachWalletNetworks,
    breakers: (fixtures) => {
      const valid: RequestParts = {
        headers: bearer(fixtures.wallet.access),
        body: { networkIds: [] },
      }
      const uuids = (minLength: number, maxLength: number) =>
        fc.array(fc.uuid(), { minLength, maxLength })
      const badIds = fc.oneof(
        wrongType('array'),
        fc
          .tuple(uuids(0, 4), fc.oneof(badUuid, wrongType('string')), fc.nat())
          .map(([ids, bad, at]) => (ids as unknown[]).toSpliced(at % (ids.length + 1), 0, bad)),
        uuids(21, 40),
      )
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...bodyBreakers(valid, { networkIds: { bad: badIds } }),
        uuids(1, 5)
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
      // Base units: a whole number from 1 to 2^256 - 1, so a fraction is refused too.
      const badBaseUnits = fc.oneof(
        badAmountString,
        fc.constantFrom('1.5', (maxUint256 + 1n).toString()),
      )
      return [
        ...tokenBreakers(valid, realm(fixtures, 'wallet', 'access')),
        ...pathBreakers(valid, 'network', badEnumString(NETWORK_NAMES)),
        ...queryBreakers(
          valid,
          {
            token: { bad: badAddress, required: true },
            amount: { bad: badBaseUnits, required: true },
            owner: { bad: badAddress, required: true },
          },
          { strict: true },
        ),
      ]
    },
  },
  tokenOnlyRoute('GET /api/v1/watchlist/projects', listWatchlist, 'wallet', 'access'),
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
        ...queryBreakers(
          valid,
          {
            limit: { bad: badIntegerString(1, 100) },
            offset: { bad: badIntegerString(0, Number.MAX_SAFE_INTEGER) },
            sort: { bad: badEnumString(['createdAt']) },
            direction: { bad: badDirection },
          },
          { strict: true },
        ),
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
        ...pathBreakers(valid, 'hash', badHash),
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
        ...pathBreakers(valid, 'tradeId', badUuid),
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
      `${'route'.padEnd(width)}${cells(['tried', 'kinds', ...statuses, 'ms'])}`,
      ...[...tally].map(
        ([route, row]) =>
          `${route.padEnd(width)}${cells([
            row.tried,
            row.categories.size,
            ...statuses.map((status) => row.statuses.get(status) ?? ''),
            Math.round(row.ms),
          ])}`,
      ),
      `${'all routes'.padEnd(width)}${cells([
        total((row) => row.tried),
        '',
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
    expect(response.body).not.toMatch(LEAK)
    const echoed = stringsOf(body)
    for (const secret of [...request.secrets, ...fixtureSecrets]) {
      expect(echoed.filter((text) => text.includes(secret))).toEqual([])
    }
  }

  it.each(ROUTES)(
    '$routeKey refuses each malformed request with a 4xx envelope and writes nothing',
    async (route) => {
      const row: Tally = { tried: 0, categories: new Set(), statuses: new Map(), ms: 0 }
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
