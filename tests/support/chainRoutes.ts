import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { handler as quoteEthereum } from '../../functions/swap/quoteEthereum'
import { handler as transferEthereum } from '../../functions/transfer/transferEthereum'
import { NATIVE_COIN } from '../../lib/constants'
import { devnet } from './devnetAccounts'
import { httpEvent, invoke } from './httpEvent'
import { bearer } from './marketFixtures'
import { signInWithWallet } from './walletSignIn'

// The ethereum chain routes the provider-fault tests drive: a funded, signed-in caller, a quote
// of the native coin and a native transfer, through the real handlers.

export interface ChainCaller {
  privateKey: `0x${string}`
  access: string
}

/** A new wallet with 10 coins on the shared ethereum devnet, signed in. */
export async function fundedCaller(): Promise<ChainCaller> {
  const privateKey = generatePrivateKey()
  await devnet('ethereum').setBalance({
    address: privateKeyToAccount(privateKey).address,
    value: 10n ** 19n,
  })
  const { access } = await signInWithWallet(privateKey)
  return { privateKey, access }
}

/** A quote of 0.01 native coin for `token` (18 decimals unless given). */
export function quoteNativeFor(token: `0x${string}`, decimals = 18) {
  return invoke(
    quoteEthereum,
    httpEvent({
      routeKey: 'GET /api/v1/swap/quote/ethereum',
      queryStringParameters: {
        amount: '0.01',
        address0: NATIVE_COIN,
        decimals0: '18',
        address1: token,
        decimals1: String(decimals),
      },
    }),
  )
}

/** A native transfer of `amount` from the caller to a new address. */
export function transferNative(caller: ChainCaller, amount = '0.001') {
  return invoke(
    transferEthereum,
    httpEvent({
      routeKey: 'POST /api/v1/transfer/tokens/ethereum/{key}',
      pathParameters: { key: caller.privateKey },
      headers: bearer(caller.access),
      body: { to: privateKeyToAccount(generatePrivateKey()).address, amount },
    }),
  )
}
