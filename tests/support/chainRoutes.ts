import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { handler as getWalletBalances } from '../../functions/networks/getWalletBalances'
import { handler as quoteAltchain } from '../../functions/swap/quoteAltchain'
import { handler as quoteEthereum } from '../../functions/swap/quoteEthereum'
import { handler as transferAltchain } from '../../functions/transfer/transferAltchain'
import { handler as transferEthereum } from '../../functions/transfer/transferEthereum'
import { NETWORK_NAMES, type NetworkName } from '../../lib/networkNames'
import { NATIVE_COIN } from '../../lib/constants'
import { attachWalletNetworks } from '../../lib/db/walletNetwork'
import { devnet } from './devnetAccounts'
import { httpEvent, invoke } from './httpEvent'
import { bearer } from './marketFixtures'
import { signInWithWallet } from './walletSignIn'

// The chain routes the provider-fault tests drive, through the real handlers: a funded,
// signed-in caller, a quote of the native coin, a native transfer (each on one network, ethereum
// unless told) and the wallet's balances (every network at once).

export interface ChainCaller {
  privateKey: `0x${string}`
  access: string
}

const QUOTES = { ethereum: quoteEthereum, altchain: quoteAltchain }
const TRANSFERS = { ethereum: transferEthereum, altchain: transferAltchain }

/** A new wallet with 10 coins on each shared devnet, signed in, every network attached. */
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
export function quoteNativeFor(
  token: `0x${string}`,
  { decimals = 18, network = 'ethereum' }: { decimals?: number; network?: NetworkName } = {},
) {
  return invoke(
    QUOTES[network],
    httpEvent({
      routeKey: `GET /api/v1/swap/quote/${network}`,
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
export function transferNative(
  caller: ChainCaller,
  { amount = '0.001', network = 'ethereum' }: { amount?: string; network?: NetworkName } = {},
) {
  return invoke(
    TRANSFERS[network],
    httpEvent({
      routeKey: `POST /api/v1/transfer/tokens/${network}/{key}`,
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
