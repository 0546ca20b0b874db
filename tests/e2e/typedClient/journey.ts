// A client of the API as a TypeScript app would write it: openapi-fetch over the types
// openapi-typescript generates from schemas/openapi.json. tests/e2e/typedClient.test.ts generates
// the types into .test-output/, typechecks this file against them (it is outside tsconfig.json's
// program, which runs before any test), then runs the journey against serverless offline.
import { randomUUID } from 'node:crypto'
import createClient from 'openapi-fetch'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { paths } from '../../../.test-output/typed-client/openapi'
import type { JourneyOptions } from './journeyOptions'

type Api = ReturnType<typeof createClient<paths>>

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

/** The result of a success the journey builds on; anything else stops it. */
function resultOf<Result>(
  step: string,
  answer: { data?: { ok: true; result: Result }; error?: unknown },
): Result {
  if (!answer.data) throw new Error(`${step}: ${JSON.stringify(answer.error)}`)
  return answer.data.result
}

/** What the compiler refuses: proof that the generated types are not `any`. Never called. */
export async function refusedByTheTypes(api: Api) {
  // @ts-expect-error `limit` is an integer, not a string
  await api.GET('/api/v1/trades', { params: { query: { limit: '20' } } })
  // @ts-expect-error `direction` is one of a closed set
  await api.GET('/api/v1/swap/tokens', { params: { query: { direction: 'up' } } })
  // @ts-expect-error no such route
  await api.GET('/api/v1/nothing')
  // @ts-expect-error the body needs `password`
  await api.POST('/api/v1/account/register', { body: { username: 'someone' } })
}

/** Public reads, a wallet's sign-in and its reads, a quote, an account's reads, and errors. */
export async function runJourney({ baseUrl, middleware, link, usdc, linkProject }: JourneyOptions) {
  const api = createClient<paths>({ baseUrl })
  api.use(middleware)

  // Public reads, query values typed as the integers and enums the document declares.
  const { networks } = resultOf('networks', await api.GET('/api/v1/networks'))
  await api.GET('/api/v1/swap/tokens', {
    params: { query: { sort: 'symbol', direction: 'asc', limit: 20, offset: 0 } },
  })
  await api.GET('/api/v1/swap/tokens', { params: { query: { limit: 500 } } }) // 400: over 100

  // A new wallet, then its sign-in with Ethereum (a wrong signature first).
  const { mnemonic } = resultOf('mnemonic', await api.GET('/api/v1/wallet/mnemonic'))
  const wallet = resultOf(
    'create',
    await api.POST('/api/v1/wallet/create', { body: { mnemonic, index: 0 } }),
  )
  await api.POST('/api/v1/wallet/recover/key', { body: { privateKey: 'not a key' } }) // 400
  const account = privateKeyToAccount(wallet.privateKey as `0x${string}`)
  const nonce = resultOf(
    'nonce',
    await api.GET('/api/v1/auth/nonce/{address}', {
      params: { path: { address: account.address } },
    }),
  )
  const stranger = privateKeyToAccount(generatePrivateKey())
  await api.POST('/api/v1/auth/login', {
    body: {
      address: account.address,
      signature: await stranger.signMessage({ message: nonce.message }),
      nonce: nonce.nonce,
    },
  }) // 401004
  const session = resultOf(
    'login',
    await api.POST('/api/v1/auth/login', {
      body: {
        address: account.address,
        signature: await account.signMessage({ message: nonce.message }),
        nonce: nonce.nonce,
      },
    }),
  )
  const headers = bearer(session.access)

  // The wallet's own reads and writes.
  await api.GET('/api/v1/trades', {
    params: { query: { limit: 20, offset: 0, sort: 'createdAt', direction: 'DESC' } },
    headers,
  })
  await api.GET('/api/v1/trades', { params: { query: { limit: 20 } } }) // 401001: no token
  await api.POST('/api/v1/networks/wallet', {
    body: { networkIds: networks.map(({ id }) => id) },
    headers,
  })
  await api.GET('/api/v1/networks/wallet/balance', { headers })
  await api.POST('/api/v1/watchlist/{projectId}', {
    params: { path: { projectId: linkProject } },
    headers,
  })
  await api.GET('/api/v1/watchlist/projects', { headers })
  await api.GET('/api/v1/trade/id/{tradeId}', {
    params: { path: { tradeId: randomUUID() } },
    headers,
  }) // 404

  // Quotes: a real pool, then a token no pool holds (422); a transfer the wallet cannot pay.
  const quote = { amount: '1', address0: link, decimals0: 18, decimals1: 6, slippageBps: 50 }
  await api.GET('/api/v1/swap/quote/ethereum', {
    params: { query: { ...quote, address1: usdc } },
  })
  await api.GET('/api/v1/swap/quote/ethereum', {
    params: { query: { ...quote, address1: stranger.address } },
  })
  await api.POST('/api/v1/prepare/transfer/tokens/ethereum', {
    body: { to: stranger.address, amount: '1' },
    headers,
  }) // 200: its preview names the ether short for the value and gas (DECISIONS §10.2)

  // Refresh, logout, and the ended session's token refused.
  const renewed = resultOf(
    'refresh',
    await api.GET('/api/v1/auth/refresh', { headers: bearer(session.refresh) }),
  )
  await api.DELETE('/api/v1/auth/logout', { headers: bearer(renewed.access) })
  await api.GET('/api/v1/trades', { headers: bearer(renewed.access) }) // 401003

  // An account: registered once (a second time is 409), signed in, reads a project.
  const credentials = { username: `typed_${randomUUID().slice(0, 8)}`, password: randomUUID() }
  await api.POST('/api/v1/account/register', { body: credentials })
  await api.POST('/api/v1/account/register', { body: credentials }) // 409
  const { token } = resultOf(
    'account login',
    await api.POST('/api/v1/account/login', { body: credentials }),
  )
  const accountHeaders = bearer(token.access)
  await api.GET('/api/v1/project/{projectId}', {
    params: { path: { projectId: linkProject } },
    headers: accountHeaders,
  })
  await api.GET('/api/v1/project/{projectId}', {
    params: { path: { projectId: randomUUID() } },
    headers: accountHeaders,
  }) // 404
  await api.GET('/api/v1/price/history/daily/{projectId}', {
    params: { path: { projectId: linkProject } },
  })
  await api.DELETE('/api/v1/account/logout', { headers: accountHeaders })
}
