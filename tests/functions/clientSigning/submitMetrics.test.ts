import '../../support/env'
import { parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_COIN } from '../../../lib/constants'
import { captureLogs } from '../../support/captureLogs'
import { prepareRoute, submitRoute } from '../../support/clientSigningRoutes'
import { deployment, fundedAccount } from '../../support/devnetAccounts'
import { type PreparedTransaction, signAll } from '../../support/signPrepared'
import { signInWithWallet } from '../../support/walletSignIn'

// A client-signed swap counts in the business metrics (lib/metrics.ts) as a {key} swap does.

describe('business metrics of a submit', () => {
  const logs = captureLogs('SILENT')

  beforeAll(() => {
    process.env.METRICS_NAMESPACE = 'wallet-backend/test'
  })

  it('counts the broadcast and the swap per network, and nothing for the prepare', async () => {
    const caller = await fundedAccount('altchain', { native: parseEther('1') })
    const { access } = await signInWithWallet(caller.privateKey)
    const metrics = () =>
      logs
        .lines()
        .filter((line) => line.includes('"_aws"'))
        .map((line) => {
          const { _aws, ...fields } = JSON.parse(line) as Record<string, unknown>
          return fields
        })
    const before = metrics().length

    const prepared = await prepareRoute('swap/native/altchain', access, {
      amount: '0.1',
      address0: NATIVE_COIN,
      decimals0: 18,
      address1: deployment('altchain').token('CAKE'),
      decimals1: 18,
    })
    const afterPrepare = metrics().length
    const { transactions } = prepared.body.result as { transactions: PreparedTransaction[] }
    const submitted = await submitRoute(
      'altchain',
      access,
      await signAll(caller.account, transactions),
    )

    expect(submitted.status).toBe(200)
    expect(afterPrepare).toBe(before)
    expect(metrics().slice(before)).toEqual([
      { Service: 'wallet-backend', Network: 'altchain', Broadcast: 1 },
      { Service: 'wallet-backend', Network: 'altchain', Swap: 1 },
    ])
  })
})
