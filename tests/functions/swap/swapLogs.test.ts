import type { NetworkName } from '../../../lib/networkNames'
import '../../support/env'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { handler as swapNativeAltchain } from '../../../functions/swap/swapNativeAltchain'
import { handler as swapTokensAltchain } from '../../../functions/swap/swapTokensAltchain'
import { handler as swapTokensEthereum } from '../../../functions/swap/swapTokensEthereum'
import { handler as transferAltchain } from '../../../functions/transfer/transferAltchain'
import { handler as transferEthereum } from '../../../functions/transfer/transferEthereum'
import { NATIVE_COIN } from '../../../lib/constants'
import { captureLogs } from '../../support/captureLogs'
import { deployment, fundedAccount } from '../../support/devnetAccounts'
import { signInWithWallet } from '../../support/walletSignIn'
import { httpEvent, invoke } from '../../support/httpEvent'

type Handler = Parameters<typeof invoke>[0]

// Every executing route, on success and on each kind of failure, with the logger at DEBUG: the
// private key of the path never reaches a line the process writes, in any casing or form.
describe('executing routes and the log', () => {
  const logs = captureLogs('DEBUG')

  it('writes no private key on any swap or transfer route', async () => {
    const [ethereumCaller, altchainCaller] = await Promise.all([
      fundedAccount('ethereum', { tokens: { LINK: parseEther('10') } }),
      fundedAccount('altchain', { tokens: { CAKE: parseEther('10') } }),
    ])
    const callers = {
      ethereum: {
        ...ethereumCaller,
        token: (await signInWithWallet(ethereumCaller.privateKey)).access,
      },
      altchain: {
        ...altchainCaller,
        token: (await signInWithWallet(altchainCaller.privateKey)).access,
      },
    }
    const eth = deployment('ethereum')
    const alt = deployment('altchain')
    const payee = privateKeyToAccount(generatePrivateKey()).address
    const routes: Array<{
      handler: Handler
      routeKey: string
      network: NetworkName
      ok: unknown
      short: unknown
    }> = [
      {
        handler: swapTokensEthereum,
        routeKey: 'POST /api/v1/swap/tokens/ethereum/{key}',
        network: 'ethereum',
        ok: {
          amount: '1',
          address0: eth.token('LINK'),
          decimals0: 18,
          address1: eth.usdStablecoin,
          decimals1: 6,
        },
        short: {
          amount: '100',
          address0: eth.token('LINK'),
          decimals0: 18,
          address1: eth.usdStablecoin,
          decimals1: 6,
        },
      },
      {
        handler: swapTokensAltchain,
        routeKey: 'POST /api/v1/swap/tokens/altchain/{key}',
        network: 'altchain',
        ok: {
          amount: '1',
          address0: alt.token('CAKE'),
          decimals0: 18,
          address1: alt.usdStablecoin,
          decimals1: 6,
        },
        short: {
          amount: '100',
          address0: alt.token('CAKE'),
          decimals0: 18,
          address1: alt.usdStablecoin,
          decimals1: 6,
        },
      },
      {
        handler: swapNativeAltchain,
        routeKey: 'POST /api/v1/swap/native/altchain/{key}',
        network: 'altchain',
        ok: {
          amount: '0.1',
          address0: NATIVE_COIN,
          decimals0: 18,
          address1: alt.token('CAKE'),
          decimals1: 18,
        },
        short: {
          amount: '1000000',
          address0: NATIVE_COIN,
          decimals0: 18,
          address1: alt.token('CAKE'),
          decimals1: 18,
        },
      },
      {
        handler: transferAltchain,
        routeKey: 'POST /api/v1/transfer/tokens/altchain/{key}',
        network: 'altchain',
        ok: { to: payee, amount: '0.5', token: alt.token('CAKE') },
        short: { to: payee, amount: '1000', token: alt.token('CAKE') },
      },
      {
        handler: transferEthereum,
        routeKey: 'POST /api/v1/transfer/tokens/ethereum/{key}',
        network: 'ethereum',
        ok: { to: payee, amount: '0.01' },
        short: { to: payee, amount: '1000000' },
      },
    ]
    const stranger = generatePrivateKey()
    const keys = [callers.ethereum.privateKey, callers.altchain.privateKey, stranger]
    const statuses: number[] = []
    for (const [index, { handler, routeKey, network, ok, short }] of routes.entries()) {
      const { privateKey, token } = callers[network]
      const call = async (key: string, body: unknown, headers: Record<string, string> = {}) => {
        const response = await invoke(
          handler,
          httpEvent({
            routeKey,
            pathParameters: { key },
            headers: { authorization: `Bearer ${token}`, ...headers },
            body,
          }),
        )
        statuses.push(response.status)
        expect(JSON.stringify(response.body).toLowerCase()).not.toContain(privateKey.slice(2))
        return response
      }
      expect((await call(privateKey, ok, { 'idempotency-key': `logs-${index}` })).status).toBe(200)
      expect((await call(privateKey.toUpperCase().replace('0X', '0x'), ok)).status).toBe(200)
      expect((await call(privateKey, short)).status).toBe(422)
      expect((await call(stranger, ok)).status).toBe(401)
      expect((await call(`${privateKey}0`, ok)).status).toBe(400)
      expect((await call(privateKey, { ...(ok as object), key: privateKey })).status).toBe(400)
      const malformed = await invoke(
        handler,
        httpEvent({
          routeKey,
          pathParameters: { key: privateKey },
          rawBody: `{"key":"${privateKey}`,
        }),
      )
      statuses.push(malformed.status)
    }

    const lines = logs.lines()
    const output = logs.text().toLowerCase()
    // The hook works: every request left an access line with its route template, one each (the
    // sign-ins of the callers left theirs too).
    const accessLines = lines.filter(
      (line) =>
        line.includes('"message":"request"') &&
        routes.some(({ routeKey }) => line.includes(routeKey)),
    )
    expect(accessLines).toHaveLength(statuses.length)
    for (const { routeKey } of routes) expect(logs.text()).toContain(routeKey)
    for (const key of keys) {
      expect(output).not.toContain(key.slice(2).toLowerCase())
      // Nor a long fragment of it.
      expect(output).not.toContain(key.slice(2, 34).toLowerCase())
      expect(output).not.toContain(key.slice(34).toLowerCase())
    }
  })
})
