import {
  type Address,
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  isAddressEqual,
  maxUint256,
  parseAbi,
  parseEther,
  publicActions,
  walletActions,
} from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { inject } from 'vitest'
import type { NetworkName } from '../../lib/networkNames'
import { ANVIL_DEPLOYER_PRIVATE_KEY } from '../../lib/local/deployDex'
import { devnetTransport } from './devnetTransport'

// Fresh devnet accounts for tests that move funds. Each test makes its own account: anvil's
// `setBalance` gives it the native coin and the account buys tokens on the DEX itself, so no
// shared account (and no shared nonce) is involved, whatever other test files run alongside.

const fundingRouterAbi = parseAbi([
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
])

const clients = new Map<NetworkName, ReturnType<typeof createDevnetClient>>()
/** A file's own copy of a devnet, where its trades go instead (tradeOnOwnCopies). */
const ownCopies = new Map<NetworkName, string>()

/**
 * Points this file's devnet clients, and the service's (its `<NET>_RPC_URL`, read at first use),
 * at `rpcUrl`: a copy of the network's devnet of the file's own.
 */
export function pointDevnetAt(network: NetworkName, rpcUrl: string): void {
  ownCopies.set(network, rpcUrl)
  clients.delete(network)
  process.env[`${network.toUpperCase()}_RPC_URL`] = rpcUrl
}

const rpcUrlOf = (network: NetworkName) =>
  ownCopies.get(network) ?? inject('deployments')[network].rpcUrl

function createDevnetClient(network: NetworkName) {
  const { chainId } = inject('deployments')[network]
  const rpcUrl = rpcUrlOf(network)
  const chain = defineChain({
    id: chainId,
    name: network,
    nativeCurrency: { name: 'Native', symbol: 'NATIVE', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  return createTestClient({
    mode: 'anvil',
    chain,
    transport: devnetTransport(rpcUrl),
    pollingInterval: 50,
    // A block number read just after a receipt is the chain's, not one cached before it was
    // mined (viem caches it for the polling interval): a test counting blocks from it counted
    // its own funding swap as the route's.
    cacheTime: 0,
  })
    .extend(publicActions)
    .extend(walletActions)
}

/** An anvil test client of a devnet, with public and wallet actions. */
export function devnet(network: NetworkName) {
  let client = clients.get(network)
  if (!client) {
    client = createDevnetClient(network)
    clients.set(network, client)
  }
  return client
}

/** The devnet's deployment: router, wrapped native, tokens (the zoo's too) by symbol, pairs. */
export function deployment(network: NetworkName) {
  const deployed = inject('deployments')[network]
  const token = (symbol: string): Address => {
    if (symbol === 'USDC') return deployed.usdStablecoin
    const found = [...deployed.tokens, ...deployed.zoo].find(
      (candidate) => candidate.symbol === symbol,
    )
    if (!found) throw new Error(`no ${symbol} on ${network}`)
    return found.address
  }
  const hasPair = (a: Address, b: Address) =>
    deployed.pairs.some(
      (pair) =>
        (isAddressEqual(pair.token0, a) && isAddressEqual(pair.token1, b)) ||
        (isAddressEqual(pair.token0, b) && isAddressEqual(pair.token1, a)),
    )
  return { ...deployed, token, hasPair }
}

export interface FundedAccount {
  privateKey: Hex
  address: Address
  account: PrivateKeyAccount
  /** Signs and sends as the account. */
  wallet: ReturnType<typeof devnetWallet>
}

/** A wallet client of a devnet signing as `account` (gas with the service's headroom). */
export function devnetWallet(network: NetworkName, account: PrivateKeyAccount) {
  return createWalletClient({
    account,
    chain: devnet(network).chain,
    transport: devnetTransport(rpcUrlOf(network)),
  })
}

/**
 * A new account holding `native` wei and, for each entry of `tokens`, exactly that many base
 * units (less the fee, for a token that takes one on transfer), bought from the devnet's pools
 * (through USDC when the token has no native pair).
 */
export async function fundedAccount(
  network: NetworkName,
  {
    native = parseEther('1000'),
    tokens = {},
  }: { native?: bigint; tokens?: Record<string, bigint> } = {},
): Promise<FundedAccount> {
  const privateKey = generatePrivateKey()
  const account = privateKeyToAccount(privateKey)
  const client = devnet(network)
  const dex = deployment(network)
  await client.setBalance({ address: account.address, value: native + parseEther('1000000') })
  const wallet = devnetWallet(network, account)
  for (const [symbol, amount] of Object.entries(tokens)) {
    const token = dex.token(symbol)
    const path = dex.hasPair(dex.wrappedNative, token)
      ? [dex.wrappedNative, token]
      : [dex.wrappedNative, dex.usdStablecoin, token]
    const hash = await wallet.writeContract({
      address: dex.router,
      abi: fundingRouterAbi,
      functionName: 'swapETHForExactTokens',
      args: [amount, path, account.address, maxUint256],
      // The router refunds what the exact output did not need.
      value: parseEther('100000'),
    })
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`buying ${symbol} reverted`)
  }
  // What is left of the buying budget goes: the account holds `native` exactly.
  await client.setBalance({ address: account.address, value: native })
  return { privateKey, address: account.address, account, wallet }
}

/**
 * Sends `native` wei and, per entry of `tokens`, that many base units from the stack's demo
 * account (anvil's account 0, which deployed the DEX and keeps the rest of every demo token), as
 * a user funding a new wallet would. The demo account's nonce is shared: only the wallet journey
 * (tests/e2e/journeys.test.ts) uses it, so no two files race for it.
 */
export async function fundFromDemoAccount(
  network: NetworkName,
  to: Address,
  { native = 0n, tokens = {} }: { native?: bigint; tokens?: Record<string, bigint> },
): Promise<void> {
  const client = devnet(network)
  const dex = deployment(network)
  const wallet = devnetWallet(network, privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY))
  const hashes: Hex[] = []
  if (native > 0n) hashes.push(await wallet.sendTransaction({ to, value: native }))
  for (const [symbol, amount] of Object.entries(tokens)) {
    hashes.push(
      await wallet.writeContract({
        address: dex.token(symbol),
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, amount],
      }),
    )
  }
  for (const hash of hashes) {
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success')
      throw new Error(`funding ${to} from the demo account reverted`)
  }
}

/** An ERC-20 balance, or the native balance for the sentinel. */
export async function balanceOf(
  network: NetworkName,
  owner: Address,
  token: Address,
  blockNumber?: bigint,
): Promise<bigint> {
  const client = devnet(network)
  if (isAddressEqual(token, '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE')) {
    return client.getBalance({ address: owner, blockNumber })
  }
  return client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
    blockNumber,
  })
}
