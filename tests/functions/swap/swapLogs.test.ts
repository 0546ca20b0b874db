import '../../support/env'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../../lib/constants'
import { NETWORKS, type NetworkName } from '../../../lib/networkNames'
import { functionName, type OperationName } from '../../../lib/networks/operations'
import { captureLogs } from '../../support/captureLogs'
import { deployment, fundedAccount } from '../../support/devnetAccounts'
import { signInWithWallet } from '../../support/walletSignIn'
import { httpEvent, invoke, routeKeyOf } from '../../support/httpEvent'
import { pairedToken, TESTED_NETWORKS } from '../../support/networkCases'
import { networkHandler } from '../../support/networkRoutes'

// Every executing route of every network, on success and on each kind of failure, with the logger
// at DEBUG: the private key of the path never reaches a line the process writes, in any casing or
// form.
describe('executing routes and the log', () => {
  const logs = captureLogs('DEBUG')

  it('writes no private key on any swap or transfer route of any network', async () => {
    const networks = TESTED_NETWORKS
    const callers = Object.fromEntries(
      await Promise.all(
        networks.map(async (network) => {
          const caller = await fundedAccount(network, {
            tokens: { [pairedToken(network)]: parseEther('10') },
          })
          return [network, { ...caller, token: (await signInWithWallet(caller.privateKey)).access }]
        }),
      ),
    ) as Record<NetworkName, Awaited<ReturnType<typeof fundedAccount>> & { token: string }>
    const payee = privateKeyToAccount(generatePrivateKey()).address
    const routes = networks.flatMap((network) => {
      const dex = deployment(network)
      const token = dex.token(pairedToken(network))
      const swap = (amount: string) => ({
        amount,
        address0: token,
        decimals0: 18,
        address1: dex.usdStablecoin,
        decimals1: 6,
      })
      const nativeSwap = (amount: string) => ({
        amount,
        address0: NATIVE_COIN,
        decimals0: 18,
        address1: token,
        decimals1: 18,
      })
      const cases: Array<{ operation: OperationName; ok: unknown; short: unknown }> = [
        { operation: 'swapTokens', ok: swap('1'), short: swap('100') },
        ...(NETWORKS[network].routes.nativeSwapRoute
          ? [
              {
                operation: 'swapNative' as const,
                ok: nativeSwap('0.1'),
                short: nativeSwap('1000000'),
              },
            ]
          : []),
        {
          operation: 'transfer',
          ok: { to: payee, amount: '0.5', token },
          short: { to: payee, amount: '1000', token },
        },
        {
          operation: 'transfer',
          ok: { to: payee, amount: '0.01' },
          short: { to: payee, amount: '1000000' },
        },
      ]
      return cases.map((item) => ({
        ...item,
        network,
        routeKey: routeKeyOf(functionName(item.operation, network)),
      }))
    })
    const stranger = generatePrivateKey()
    const keys = [...networks.map((network) => callers[network].privateKey), stranger]
    const statuses: number[] = []
    for (const [index, { operation, routeKey, network, ok, short }] of routes.entries()) {
      const { privateKey, token } = callers[network]
      const handler = await networkHandler(operation, network)
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
