import '../../support/env'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { captureLogs } from '../../support/captureLogs'
import { devnet } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { bearer } from '../../support/marketFixtures'
import { signInWithWallet } from '../../support/walletSignIn'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const transferEthereum = networkRoute('transfer', 'ethereum')

// Issue 11 row 10: every spelling of a key that a `{key}` route accepts (lib/wallet/privateKey.ts)
// goes through a real transfer at DEBUG level, and no log line carries its digits.

const logs = captureLogs('DEBUG')
let privateKey: `0x${string}`
let access: string

beforeAll(async () => {
  privateKey = generatePrivateKey()
  await devnet('ethereum').setBalance({
    address: privateKeyToAccount(privateKey).address,
    value: 10n ** 19n,
  })
  ;({ access } = await signInWithWallet(privateKey))
})

const digits = () => privateKey.slice(2)

describe('a private key in any accepted spelling', () => {
  it.each([
    ['0x and lower case', () => privateKey],
    ['0x and upper-case digits', () => `0x${digits().toUpperCase()}`],
    ['an upper-case 0X prefix', () => `0X${digits()}`],
    ['no prefix', () => digits()],
    ['surrounding whitespace', () => ` ${privateKey} `],
  ])('signs a transfer written with %s, and never reaches a log line', async (_, spelling) => {
    const response = await invoke(
      transferEthereum,
      httpEvent({
        route: 'transferEthereum',
        pathParameters: { key: spelling() },
        headers: bearer(access),
        body: { to: privateKeyToAccount(generatePrivateKey()).address, amount: '0.001' },
      }),
    )

    expect(response.status).toBe(200)
    expect(logs.lines().length).toBeGreaterThan(0)
    expect(logs.text().toLowerCase()).not.toContain(digits().slice(0, 24))
    expect(JSON.stringify(response.body).toLowerCase()).not.toContain(digits().slice(0, 24))
  })
})
