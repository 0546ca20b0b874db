import '../support/env'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handler as quoteEthereum } from '../../functions/swap/quoteEthereum'
import { handler as transferEthereum } from '../../functions/transfer/transferEthereum'
import { findFreePort } from '../../lib/local/findFreePort'
import { NATIVE_COIN } from '../../lib/constants'
import { deployment, devnet } from '../support/devnetAccounts'
import { type RpcProxy, startRpcProxy } from '../support/faultEngines'
import { httpEvent, invoke } from '../support/httpEvent'
import { bearer } from '../support/marketFixtures'
import { signInWithWallet } from '../support/walletSignIn'

// Three RPC URLs for ethereum (DECISIONS §7.2): a dead one (nothing listens), a frozen one (takes
// the request, never answers), then the real devnet. Every chain route answers, and the broken
// providers are tried once per container, not once per request.

let frozen: RpcProxy
let caller: { privateKey: `0x${string}`; access: string }

beforeAll(async () => {
  const real = String(process.env.ETHEREUM_RPC_URL)
  frozen = await startRpcProxy(real)
  frozen.misbehave('silence')
  const dead = `http://127.0.0.1:${await findFreePort()}`
  // Before any handler reads its configuration: clients are built on first use.
  process.env.ETHEREUM_RPC_URL = `${dead},${frozen.url},${real}`
  const privateKey = generatePrivateKey()
  await devnet('ethereum').setBalance({
    address: privateKeyToAccount(privateKey).address,
    value: 10n ** 19n,
  })
  const { access } = await signInWithWallet(privateKey)
  caller = { privateKey, access }
}, 60_000)

afterAll(async () => {
  await frozen?.close()
})

function quote() {
  return invoke(
    quoteEthereum,
    httpEvent({
      routeKey: 'GET /api/v1/swap/quote/ethereum',
      queryStringParameters: {
        amount: '0.01',
        address0: NATIVE_COIN,
        decimals0: '18',
        address1: deployment('ethereum').usdStablecoin,
        decimals1: '6',
      },
    }),
  )
}

function transfer() {
  return invoke(
    transferEthereum,
    httpEvent({
      routeKey: 'POST /api/v1/transfer/tokens/ethereum/{key}',
      pathParameters: { key: caller.privateKey },
      headers: bearer(caller.access),
      body: { to: privateKeyToAccount(generatePrivateKey()).address, amount: '0.001' },
    }),
  )
}

describe('several RPC URLs with the first two broken', () => {
  it('answers every chain route from the next URL, trying a broken one once, not per request', async () => {
    const answers = []
    for (let round = 0; round < 4; round++) {
      answers.push((await quote()).status, (await transfer()).status)
    }

    expect(answers).toEqual(Array.from({ length: 8 }, () => 200))
    // The first request found it frozen (one timeout); then it was demoted behind the devnet.
    expect(frozen.requests()).toBe(1)
  })
})
