import '../support/env'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { handler as loginAccount } from '../../functions/account/loginAccount'
import { handler as logoutAccount } from '../../functions/account/logoutAccount'
import { handler as refreshAccountSession } from '../../functions/account/refreshAccountSession'
import { handler as registerAccount } from '../../functions/account/registerAccount'
import { handler as getNonce } from '../../functions/auth/getNonce'
import { handler as loginWallet } from '../../functions/auth/loginWallet'
import { handler as logoutWallet } from '../../functions/auth/logoutWallet'
import { handler as refreshWalletSession } from '../../functions/auth/refreshWalletSession'
import { handler as createWallet } from '../../functions/wallet/createWallet'
import { handler as generateMnemonic } from '../../functions/wallet/generateMnemonic'
import { handler as recoverWalletFromKey } from '../../functions/wallet/recoverWalletFromKey'
import { handler as recoverWalletFromMnemonic } from '../../functions/wallet/recoverWalletFromMnemonic'
import { captureLogs } from '../support/captureLogs'
import { type HttpEventOverrides, httpEvent, invoke } from '../support/httpEvent'
import { uniqueClient } from '../support/uniqueClient'

type Handler = Parameters<typeof invoke>[0]

interface Tokens {
  access: string
  refresh: string
}

// Drives all twelve identity routes, on success and on failure, with the logger at DEBUG, and
// checks that no secret of the run reaches any line the process writes.
describe('identity routes and the log', () => {
  const logs = captureLogs('DEBUG')

  it('writes no password, key, mnemonic, signature or token on any route', async () => {
    const secrets: string[] = []
    const routesCalled = new Set<string>()
    let requests = 0
    const call = async (handler: Handler, overrides: HttpEventOverrides & { routeKey: string }) => {
      routesCalled.add(overrides.routeKey)
      requests += 1
      return invoke(handler, httpEvent(overrides))
    }
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

    // Wallets: generate, create, recover by mnemonic and by key.
    const generated = await call(generateMnemonic, { routeKey: 'GET /api/v1/wallet/mnemonic' })
    const { mnemonic } = generated.body.result as { mnemonic: string }
    const created = await call(createWallet, {
      routeKey: 'POST /api/v1/wallet/create',
      body: { mnemonic },
    })
    const { privateKey } = created.body.result as { privateKey: `0x${string}` }
    await call(recoverWalletFromMnemonic, {
      routeKey: 'POST /api/v1/wallet/recover/mnemonic',
      body: { mnemonic, index: 1 },
    })
    await call(recoverWalletFromKey, {
      routeKey: 'POST /api/v1/wallet/recover/key',
      body: { privateKey },
    })
    await call(recoverWalletFromKey, {
      routeKey: 'POST /api/v1/wallet/recover/key',
      body: { privateKey: `${privateKey}ff` },
    })
    secrets.push(mnemonic, privateKey, privateKey.slice(2))

    // Wallet sessions: nonce, a bad and a good login, refresh, a replay, logout.
    const account = privateKeyToAccount(privateKey)
    const stranger = privateKeyToAccount(generatePrivateKey())
    // One client for the nonce and the logins that do not name it (DECISIONS §10.4).
    const walletClient = uniqueClient()
    const nonce = await call(getNonce, {
      routeKey: 'GET /api/v1/auth/nonce/{address}',
      pathParameters: { address: account.address },
      sourceIp: walletClient,
    })
    const { message } = nonce.body.result as { message: string }
    const badSignature = await stranger.signMessage({ message })
    const signature = await account.signMessage({ message })
    await call(loginWallet, {
      routeKey: 'POST /api/v1/auth/login',
      body: { address: account.address, signature: badSignature },
      sourceIp: walletClient,
    })
    const walletLogin = await call(loginWallet, {
      routeKey: 'POST /api/v1/auth/login',
      body: { address: account.address, signature },
      sourceIp: walletClient,
    })
    const walletTokens = walletLogin.body.result as Tokens
    const walletRefreshed = await call(refreshWalletSession, {
      routeKey: 'GET /api/v1/auth/refresh',
      headers: bearer(walletTokens.refresh),
    })
    const nextWalletTokens = walletRefreshed.body.result as Tokens
    await call(refreshWalletSession, {
      routeKey: 'GET /api/v1/auth/refresh',
      headers: bearer(walletTokens.refresh),
    })
    await call(logoutWallet, {
      routeKey: 'DELETE /api/v1/auth/logout',
      headers: bearer(nextWalletTokens.access),
    })
    secrets.push(signature, badSignature, walletTokens.access, walletTokens.refresh)
    secrets.push(nextWalletTokens.access, nextWalletTokens.refresh)

    // Accounts: register, a wrong password, login, refresh, logout.
    const username = `logs_${Date.now().toString(36)}`
    const password = `Pw-${generatePrivateKey().slice(2, 18)}`
    await call(registerAccount, {
      routeKey: 'POST /api/v1/account/register',
      body: { username, password },
    })
    await call(loginAccount, {
      routeKey: 'POST /api/v1/account/login',
      body: { username, password: `${password}x` },
    })
    const accountLogin = await call(loginAccount, {
      routeKey: 'POST /api/v1/account/login',
      body: { username, password },
    })
    const { token: accountTokens, device } = accountLogin.body.result as {
      token: Tokens
      device: string
    }
    // A login with the device token of the one before (it, too, must not reach the log).
    const deviceLogin = await call(loginAccount, {
      routeKey: 'POST /api/v1/account/login',
      body: { username, password, device },
    })
    const { device: nextDevice } = deviceLogin.body.result as { device: string }
    const accountRefreshed = await call(refreshAccountSession, {
      routeKey: 'GET /api/v1/account/refresh',
      headers: bearer(accountTokens.refresh),
    })
    const { token: nextAccountTokens } = accountRefreshed.body.result as { token: Tokens }
    await call(logoutAccount, {
      routeKey: 'DELETE /api/v1/account/logout',
      headers: bearer(nextAccountTokens.access),
    })
    secrets.push(password, `${password}x`, accountTokens.access, accountTokens.refresh)
    secrets.push(nextAccountTokens.access, nextAccountTokens.refresh, device, nextDevice)

    const output = logs.text()
    expect(routesCalled.size).toBe(12)
    expect(walletLogin.status).toBe(200)
    expect(accountLogin.status).toBe(200)
    expect(deviceLogin.status).toBe(200)
    // The capture works: every request left its access-log line, one each.
    expect(requests).toBe(17)
    expect(output.match(/"message":"request"/g)?.length).toBe(requests)
    for (const secret of secrets) {
      expect(output.includes(secret), 'a secret reached the log').toBe(false)
    }
    expect(output).not.toMatch(/eyJ[\w-]+\.[\w-]+\./)
  })
})
