import '../../support/env'
import { parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../../lib/constants'
import { ChainUnavailable } from '../../../lib/errors'
import { errorHandler } from '../../../lib/http/errorHandler'
import type { HttpRequest } from '../../../lib/http/types'
import { captureLogs } from '../../support/captureLogs'
import { deployment, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { accountSession } from '../../support/marketFixtures'
import { signInWithWallet } from '../../support/walletSignIn'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const swapNativeAltchain = networkRoute('swapNative', 'altchain')

// Deployed stages set METRICS_NAMESPACE; each business event then writes one CloudWatch
// Embedded Metric Format line to stdout, which CloudWatch turns into a metric.
const NAMESPACE = 'wallet-backend/test'

interface EmfLine {
  _aws: {
    Timestamp: number
    CloudWatchMetrics: Array<{
      Namespace: string
      Dimensions: string[][]
      Metrics: Array<{ Name: string; Unit: string }>
    }>
  }
  [field: string]: unknown
}

describe('business metrics (EMF)', () => {
  const logs = captureLogs('SILENT')
  const emfLines = () =>
    logs
      .lines()
      .filter((line) => line.includes('"_aws"'))
      .map((line) => JSON.parse(line) as EmfLine)

  beforeAll(() => {
    process.env.METRICS_NAMESPACE = NAMESPACE
  })

  it('counts a wallet sign-in once, and nothing for the nonce before it', async () => {
    const before = Date.now()
    await signInWithWallet()

    expect(emfLines()).toEqual([
      {
        _aws: {
          Timestamp: expect.any(Number) as number,
          CloudWatchMetrics: [
            {
              Namespace: NAMESPACE,
              Dimensions: [['Service'], ['Service', 'Method']],
              Metrics: [{ Name: 'SignIn', Unit: 'Count' }],
            },
          ],
        },
        Service: 'wallet-backend',
        Method: 'wallet',
        SignIn: 1,
      },
    ])
    expect(emfLines()[0]?._aws.Timestamp).toBeGreaterThanOrEqual(before)
  })

  it('counts an account sign-in, and not the registration', async () => {
    await accountSession()

    expect(emfLines().map(({ _aws, ...fields }) => fields)).toEqual([
      { Service: 'wallet-backend', Method: 'account', SignIn: 1 },
    ])
  })

  it('counts a swap and its one broadcast, per network, and no key reaches the line', async () => {
    const caller = await fundedAccount('altchain', { native: parseEther('1') })
    const { access } = await signInWithWallet(caller.privateKey)
    const before = emfLines().length

    const response = await invoke(
      swapNativeAltchain,
      httpEvent({
        route: 'swapNativeAltchain',
        pathParameters: { key: caller.privateKey },
        headers: { authorization: `Bearer ${access}` },
        body: {
          amount: '0.1',
          address0: NATIVE_COIN,
          decimals0: 18,
          address1: deployment('altchain').token('CAKE'),
          decimals1: 18,
        },
      }),
    )

    expect(response.status).toBe(200)
    const swapLines = emfLines().slice(before)
    expect(swapLines.map(({ _aws, ...fields }) => fields)).toEqual([
      { Service: 'wallet-backend', Network: 'altchain', Broadcast: 1 },
      { Service: 'wallet-backend', Network: 'altchain', Swap: 1 },
    ])
    for (const line of swapLines) {
      expect(line._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([
        ['Service'],
        ['Service', 'Network'],
      ])
    }
    expect(logs.text().toLowerCase()).not.toContain(caller.privateKey.slice(2).toLowerCase())
  })

  it('counts every 502 a chain node caused', async () => {
    const request = {
      event: httpEvent({ route: 'quoteEthereum' }),
      error: new ChainUnavailable('ethereum'),
      context: {},
    } as unknown as HttpRequest
    await errorHandler().onError?.(request)

    expect(request.response?.statusCode).toBe(502)
    expect(emfLines().map(({ _aws, ...fields }) => fields)).toEqual([
      { Service: 'wallet-backend', ChainUnavailable: 1 },
    ])
  })
})
