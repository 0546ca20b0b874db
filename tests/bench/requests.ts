import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { httpEvent, invoke } from '../support/httpEvent'
import { timeMany } from './stats'

type Handler = Parameters<typeof invoke>[0]

export interface RequestFigure {
  route: string
  p50: number
  p99: number
  runs: number
  dynamoCalls: number
}

// Handlers are imported only after the local stack has put its settings in process.env.
async function load<Module>(path: string): Promise<Module> {
  return (await import(path)) as Module
}

/** Warm, in-process timings of the identity and network routes against the local engines. */
export async function measureRequests(runs: number): Promise<RequestFigure[]> {
  const { db } = await load<typeof import('../../lib/db/client')>('../../lib/db/client')
  const route = async (file: string) =>
    (await load<{ handler: Handler }>(`../../functions/${file}`)).handler
  const [
    listNetworks,
    getNonce,
    loginWallet,
    refreshWallet,
    register,
    loginAccount,
    refreshAccount,
  ] = await Promise.all([
    route('networks/listNetworks'),
    route('auth/getNonce'),
    route('auth/loginWallet'),
    route('auth/refreshWalletSession'),
    route('account/registerAccount'),
    route('account/loginAccount'),
    route('account/refreshAccountSession'),
  ])

  let calls = 0
  const client = db()
  const send = client.send.bind(client)
  client.send = ((...args: Parameters<typeof send>) => {
    calls += 1
    return send(...args)
  }) as typeof client.send
  const measure = async (
    name: string,
    times: number,
    prepare: () => Promise<() => Promise<unknown>>,
  ): Promise<RequestFigure> => {
    const requests: Array<() => Promise<unknown>> = []
    for (let index = 0; index < times; index += 1) requests.push(await prepare())
    await requests[0]?.() // warm: first use creates clients and caches
    calls = 0
    const timing = await timeMany(
      times - 1,
      (index) => requests[index + 1]?.() ?? Promise.resolve(),
    )
    return { route: name, ...timing, dynamoCalls: calls / (times - 1) }
  }

  const figures: RequestFigure[] = []
  figures.push(
    await measure(
      'GET /v1/networks',
      runs,
      async () => () => invoke(listNetworks, httpEvent({ routeKey: 'GET /api/v1/networks' })),
    ),
  )

  const walletSignature = async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const nonce = await invoke(
      getNonce,
      httpEvent({
        routeKey: 'GET /api/v1/auth/nonce/{address}',
        pathParameters: { address: account.address },
      }),
    )
    const { message } = nonce.body.result as { message: string }
    return { address: account.address, signature: await account.signMessage({ message }) }
  }
  figures.push(
    await measure('POST /v1/auth/login', runs, async () => {
      const body = await walletSignature()
      return () => invoke(loginWallet, httpEvent({ routeKey: 'POST /api/v1/auth/login', body }))
    }),
  )
  figures.push(
    await measure('GET /v1/auth/refresh', runs, async () => {
      const body = await walletSignature()
      const login = await invoke(
        loginWallet,
        httpEvent({ routeKey: 'POST /api/v1/auth/login', body }),
      )
      const { refresh } = login.body.result as { refresh: string }
      return () =>
        invoke(
          refreshWallet,
          httpEvent({
            routeKey: 'GET /api/v1/auth/refresh',
            headers: { authorization: `Bearer ${refresh}` },
          }),
        )
    }),
  )

  // scrypt (N=2^17) dominates account login: fewer runs.
  const accountRuns = Math.max(3, Math.ceil(runs / 5))
  const credentials = async () => {
    const body = {
      username: `bench_${generatePrivateKey().slice(2, 14)}`,
      password: 'bench-password-1',
    }
    await invoke(register, httpEvent({ routeKey: 'POST /api/v1/account/register', body }))
    return body
  }
  figures.push(
    await measure('POST /v1/account/login', accountRuns, async () => {
      const body = await credentials()
      return () => invoke(loginAccount, httpEvent({ routeKey: 'POST /api/v1/account/login', body }))
    }),
  )
  figures.push(
    await measure('GET /v1/account/refresh', accountRuns, async () => {
      const body = await credentials()
      const login = await invoke(
        loginAccount,
        httpEvent({ routeKey: 'POST /api/v1/account/login', body }),
      )
      const { refresh } = (login.body.result as { token: { refresh: string } }).token
      return () =>
        invoke(
          refreshAccount,
          httpEvent({
            routeKey: 'GET /api/v1/account/refresh',
            headers: { authorization: `Bearer ${refresh}` },
          }),
        )
    }),
  )
  client.send = send
  return figures
}
