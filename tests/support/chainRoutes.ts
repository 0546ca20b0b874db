import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { handler as getWalletBalances } from '../../functions/networks/getWalletBalances'
import { NETWORK_NAMES, type NetworkName } from '../../lib/networkNames'
import { functionName } from '../../lib/networks/operations'
import { NATIVE_COIN } from '../../lib/constants'
import { attachWalletNetworks } from '../../lib/db/walletNetwork'
import { devnet } from './devnetAccounts'
import { httpEvent, invoke } from './httpEvent'
import { bearer } from './marketFixtures'
import { networkHandler } from './networkRoutes'
import { signInWithWallet } from './walletSignIn'

// The chain routes the provider-fault tests drive, through the real handlers: a funded,
// signed-in caller, a quote of the native coin, a native transfer (each on one network, ethereum
// unless told) and the wallet's balances (every network at once).

export interface ChainCaller {
  privateKey: `0x${string}`
  access: string
}

/** A new wallet with 10 coins on each devnet the stack serves, signed in, every network attached. */
export async function fundedCaller(): Promise<ChainCaller> {
  const privateKey = generatePrivateKey()
  const { address } = privateKeyToAccount(privateKey)
  await Promise.all(
    NETWORK_NAMES.map((network) => devnet(network).setBalance({ address, value: 10n ** 19n })),
  )
  const { access } = await signInWithWallet(privateKey)
  await attachWalletNetworks(address, NETWORK_NAMES)
  return { privateKey, access }
}

/** A quote of 0.01 native coin for `token` (18 decimals unless given). */
export async function quoteNativeFor(
  token: `0x${string}`,
  { decimals = 18, network = 'ethereum' }: { decimals?: number; network?: NetworkName } = {},
) {
  return invoke(
    await networkHandler('quote', network),
    httpEvent({
      route: functionName('quote', network),
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
export async function transferNative(
  caller: ChainCaller,
  { amount = '0.001', network = 'ethereum' }: { amount?: string; network?: NetworkName } = {},
) {
  return invoke(
    await networkHandler('transfer', network),
    httpEvent({
      route: functionName('transfer', network),
      pathParameters: { key: caller.privateKey },
      headers: bearer(caller.access),
      body: { to: privateKeyToAccount(generatePrivateKey()).address, amount },
    }),
  )
}

/** The caller's native balance on every attached network. */
export function walletBalances(caller: ChainCaller) {
  return invoke(
    getWalletBalances,
    httpEvent({ route: 'getWalletBalances', headers: bearer(caller.access) }),
  )
}
