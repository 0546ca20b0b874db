import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { projectId } from '../../lib/db/project'
import { listNetworksResultSchema } from '../../schemas/networks'
import { projectResultSchema } from '../../schemas/project'
import { apiCall } from '../support/apiCall'
import { devnet } from '../support/devnetAccounts'
import { NETWORK_NAMES } from '../../lib/networkNames'

async function walletToken(privateKey = generatePrivateKey()) {
  const account = privateKeyToAccount(privateKey)
  const nonce = await apiCall('GET', `/auth/nonce/${account.address}`)
  const message = String(nonce.body.result?.message)
  const login = await apiCall('POST', '/auth/login', {
    body: { address: account.address, signature: await account.signMessage({ message }) },
  })
  return { address: account.address, access: String(login.body.result?.access) }
}

async function accountToken() {
  const credentials = {
    username: `e2e_${crypto.randomUUID().slice(0, 8)}`,
    password: 'e2e-password',
  }
  await apiCall('POST', '/account/register', { body: credentials })
  const login = await apiCall('POST', '/account/login', { body: credentials })
  return String((login.body.result?.token as { access: string }).access)
}

// The demo catalog's LINK on the ethereum devnet: priced and synced once when the stack started.
const deployment = inject('deployments').ethereum
const link = deployment.tokens.find((token) => token.symbol === 'LINK')
const demoProject = projectId('ethereum', String(link?.address))

describe('markets over HTTP (serverless offline)', () => {
  let wallet: { address: `0x${string}`; access: string }
  beforeAll(async () => {
    wallet = await walletToken()
  })

  it('attaches networks to a wallet and shows its balance on each', async () => {
    const { networks } = listNetworksResultSchema.parse(
      (await apiCall('GET', '/networks')).body.result,
    )
    await devnet('ethereum').setBalance({
      address: wallet.address,
      value: parseEther('1.25'),
    })

    const attached = await apiCall('POST', '/networks/wallet', {
      token: wallet.access,
      body: { networkIds: networks.map(({ id }) => id) },
    })
    const unknown = await apiCall('POST', '/networks/wallet', {
      token: wallet.access,
      body: { networkIds: [crypto.randomUUID()] },
    })
    const balances = await apiCall('GET', '/networks/wallet/balance', { token: wallet.access })

    expect(attached).toEqual({ status: 200, body: { ok: true, result: {} } })
    expect(unknown).toMatchObject({ status: 404, body: { ok: false, error: { code: 404 } } })
    expect(balances).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          // Every network the stack serves, the funding on ethereum only.
          networksBalance: [...NETWORK_NAMES]
            .sort()
            .map((network) =>
              network === 'ethereum'
                ? { network, balance: 1.25, balanceExact: '1.25' }
                : { network, balance: 0, balanceExact: '0' },
            ),
        },
      },
    })
  })

  it('serves the three price histories publicly', async () => {
    for (const [window, key] of [
      ['daily', 'hour'],
      ['monthly', 'day'],
      ['yearly', 'month'],
    ] as const) {
      const response = await apiCall('GET', `/price/history/${window}/${demoProject}`)

      expect(response.status).toBe(200)
      const history = response.body.result?.history as Array<Record<string, unknown>>
      // Full windows from the devnets' year (a sampler run may be due on a bucket just opened);
      // the latest hour is the pools' average over it, about LINK's catalog price.
      expect(history.length).toBeGreaterThanOrEqual({ hour: 23, day: 29, month: 11 }[key])
      expect(history.at(-1)).toEqual({
        avgPrice: key === 'hour' ? expect.closeTo(15.5, 0) : expect.any(Number),
        [key]: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:00:00\.000000 \+00:00$/),
      })
    }
    const unknown = await apiCall('GET', `/price/history/daily/${crypto.randomUUID()}`)
    expect(unknown).toMatchObject({ status: 404, body: { ok: false, error: { code: 404 } } })
  })

  it('shows project details to an account, and refuses a wallet token', async () => {
    const access = await accountToken()

    const response = await apiCall('GET', `/project/${demoProject}`, { token: access })
    const withWallet = await apiCall('GET', `/project/${demoProject}`, { token: wallet.access })
    const watchlistWithAccount = await apiCall('GET', '/watchlist/projects', { token: access })

    expect(response.status).toBe(200)
    const { project } = projectResultSchema.parse(response.body.result)
    expect(project).toMatchObject({
      id: demoProject,
      symbol: 'LINK',
      network: 'ethereum',
      price: expect.closeTo(15.5, 0),
      total_supply: 600_000_000,
      circulating_supply: 600_000_000,
      market_pairs: 2,
    })
    expect(project.market_rank).toBeGreaterThanOrEqual(1)
    expect(project.market_cap).toBeCloseTo(project.price * 600_000_000, 0)
    expect(withWallet).toMatchObject({ status: 401, body: { error: { code: 401002 } } })
    expect(watchlistWithAccount).toMatchObject({ status: 401, body: { error: { code: 401002 } } })
  })
})
