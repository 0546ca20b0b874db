import { SignJWT } from 'jose'
import { createHmac } from 'node:crypto'
import { type Hex, keccak256, toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import type { UnsignedTransaction } from '../clientSigning/unsignedTransaction'
import { nameBasedUuid } from '../db/ids'
import { networkId } from '../db/network'
import { projectId } from '../db/project'
import { formatTimestamp } from '../formatTimestamp'
import { DEFAULT_NETWORK_NAMES, NETWORKS } from '../networkNames'

// The values the routes' examples share (each route's example is in its doc file beside the
// handler, lib/openapi/routeDoc.ts): one wallet, one catalog; a network's swaps and transfers are
// built from its table entry (lib/openapi/networkExamples.ts). Each example is parsed with its
// route's own schemas by tests/unit/lib/openapi/openApiDocument.test.ts, and the linters check
// each against the document. The wallet is anvil's public test account 3, so signatures and the
// submitted transactions are real.

// The published test mnemonic of anvil and hardhat: never a real wallet.
export const TEST_PHRASE = 'test test test test test test test test test test test junk'
export const EXAMPLE_SIGNER = mnemonicToAccount(TEST_PHRASE, { addressIndex: 3 })
export const WALLET = EXAMPLE_SIGNER.address
export const WALLET_KEY = keyOf(EXAMPLE_SIGNER)
export function keyOf(account: ReturnType<typeof mnemonicToAccount>): Hex {
  const { privateKey } = account.getHdKey()
  if (!privateKey) throw new Error('an HD account always has a private key')
  return toHex(privateKey)
}

// Ethereum's catalog examples (LINK, USDC) and its router, as the network table names them.
export const ETHEREUM = {
  chainId: NETWORKS.ethereum.deployed.chainId,
  swapRouter: NETWORKS.ethereum.deployed.swapRouter,
  usdc: NETWORKS.ethereum.deployed.usdStablecoin,
  link: '0x514910771AF9Ca656af840dff83E8264EcF986CA',
} as const

/** The submit example of a prepare example: its transactions signed by the example wallet. */
export async function submitExample(prepared: { result: { transactions: UnsignedTransaction[] } }) {
  const transactions = await Promise.all(
    prepared.result.transactions.map((transaction) =>
      EXAMPLE_SIGNER.signTransaction({
        type: 'eip1559',
        chainId: transaction.chainId,
        nonce: transaction.nonce,
        gas: BigInt(transaction.gas),
        maxFeePerGas: BigInt(transaction.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(transaction.maxPriorityFeePerGas),
        to: transaction.to,
        data: transaction.data,
        value: BigInt(transaction.value),
      }),
    ),
  )
  const txIds = transactions.map((signed) => keccak256(signed))
  const txId = txIds.at(-1)
  if (!txId) throw new Error('a prepare example has at least one transaction')
  return { body: { transactions }, result: { txId, txIds } }
}

// Sessions: tokens signed with a key no stage uses, as the service shapes them (lib/auth/tokens.ts).
const EXAMPLE_TOKEN_KEY = new TextEncoder().encode('an example key that signs no real token')
const ISSUED_AT = 1_795_000_000
export const ACCOUNT_ID = '0b3c9a2e-5f4d-4e8b-9c1a-7d6e5f4a3b2c'

async function exampleToken(
  audience: 'wallet' | 'account',
  subject: string,
  use: 'access' | 'refresh',
  serial: number,
): Promise<string> {
  const lifetime = use === 'access' ? 900 : 2_592_000
  return new SignJWT({
    sid: nameBasedUuid(`example/session/${audience}/${serial}`),
    typ: use,
    ...(use === 'refresh' && { fid: nameBasedUuid(`example/family/${audience}`) }),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('wallet-backend')
    .setAudience(audience)
    .setSubject(subject)
    .setJti(nameBasedUuid(`example/token/${audience}/${use}/${serial}`))
    .setIssuedAt(ISSUED_AT)
    .setExpirationTime(ISSUED_AT + lifetime)
    .sign(EXAMPLE_TOKEN_KEY)
}

export async function tokenPair(audience: 'wallet' | 'account', subject: string, serial: number) {
  return {
    access: await exampleToken(audience, subject, 'access', serial),
    refresh: await exampleToken(audience, subject, 'refresh', serial),
  }
}

/** A device token as lib/auth/deviceToken.ts shapes it (under a key no stage uses), of login `serial`. */
export function exampleDeviceToken(serial: number): string {
  const expiresAt = ISSUED_AT + serial + 7_776_000
  const id = Buffer.from(nameBasedUuid(`example/device/${serial}`).replaceAll('-', ''), 'hex')
  const mac = createHmac('sha256', EXAMPLE_TOKEN_KEY).update(`d1|satoshi_n|${expiresAt}|${serial}`)
  return `d1.${expiresAt}.${id.toString('base64url')}.${mac.digest('base64url')}`
}

// Sign-in with Ethereum, as lib/auth/siwe.ts builds the message (a deployed stage's settings).
export const NONCE = 481_516_234_200
export const SIGN_IN_MESSAGE = createSiweMessage({
  domain: 'app.example.com',
  uri: 'https://app.example.com',
  address: WALLET,
  statement: 'Sign in to the wallet app. This request costs nothing and sends no transaction.',
  version: '1',
  chainId: ETHEREUM.chainId,
  nonce: String(NONCE),
  issuedAt: new Date(ISSUED_AT * 1000),
  expirationTime: new Date((ISSUED_AT + 300) * 1000),
})

// The catalog: two ethereum tokens, ids as lib/db/project.ts derives them.
export const LINK = {
  id: projectId('ethereum', ETHEREUM.link),
  name: 'Chainlink',
  address: ETHEREUM.link,
  symbol: 'LINK',
  decimals: 18,
  network: 'ethereum',
}
export const USDC = {
  id: projectId('ethereum', ETHEREUM.usdc),
  name: 'USD Coin',
  address: ETHEREUM.usdc,
  symbol: 'USDC',
  decimals: 6,
  network: 'ethereum',
}
const CREATED_AT = new Date('2026-03-02T09:15:00.000Z')
const NOW = new Date('2026-11-21T20:00:00.000Z')
export const HOUR_MS = 3_600_000
export const DAY_MS = 24 * HOUR_MS

export const project = {
  ...LINK,
  industry: 'Oracles',
  description: 'A decentralized oracle network that brings off-chain data to smart contracts.',
  contract_inception: formatTimestamp(new Date('2017-09-16T19:41:52.000Z')),
  contract_age: 3353,
  market_rank: 1,
  price: 14.02,
  market_cap: 8_794_000_000,
  fully_diluted_market_cap: 14_020_000_000,
  total_supply: 1_000_000_000,
  total_supply_exact: '1000000000',
  circulating_supply: 627_250_000.5,
  circulating_supply_exact: '627250000.500000000000000001',
  volume_24h: 412_000_000,
  market_pairs: 3,
  price_change_24h: -1.8,
  price_change_7d: 4.2,
  price_change_30d: 11.5,
  price_change_60d: 9.1,
  price_change_90d: -3.4,
  createdAt: formatTimestamp(CREATED_AT),
  watchLists: 12,
  social: {
    id: nameBasedUuid(`social/${LINK.id}`),
    website: 'https://chain.link',
    explorer: `https://etherscan.io/token/${ETHEREUM.link}`,
    twitter: 'https://twitter.com/chainlink',
    facebook: '',
    instagram: '',
    telegram: 'https://t.me/chainlinkofficial',
    discord: 'https://discord.gg/chainlink',
    reddit: 'https://www.reddit.com/r/Chainlink',
    youtube: 'https://www.youtube.com/@chainlinkofficial',
    github: 'https://github.com/smartcontractkit',
    medium: '',
  },
  tags: [{ id: nameBasedUuid('tag/oracle'), tag: 'Oracle' }],
  categories: [{ id: nameBasedUuid('category/infrastructure'), category: 'Infrastructure' }],
}

/** A price history of hours or days, one point per price, the last one at NOW. */
export function history(key: 'hour' | 'day', stepMs: number, prices: number[]) {
  return {
    history: prices.map((avgPrice, index) => ({
      avgPrice,
      [key]: formatTimestamp(new Date(NOW.getTime() - (prices.length - 1 - index) * stepMs)),
    })),
  }
}

export const SWAP_HASH = '0x9a1c3b0e4f7d2a6c8b5e1f0d3c7a9b2e4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a3c'
export const tradeRecord = {
  id: '019a8f2e-4b1c-7d3e-9f0a-1b2c3d4e5f60',
  hash: SWAP_HASH,
  type: 'swap',
  network: 'ethereum',
  status: 'successful',
  amount: 40,
  amountExact: '40',
  gasUsed: 152_331,
  blockNumber: 21_004_512,
  isNativeTransfer: false,
  from: WALLET,
  to: ETHEREUM.swapRouter,
  createdAt: formatTimestamp(new Date('2026-11-21T19:58:12.345Z')),
}

/** The networks the default stage serves (NETWORKS unset): the interface's two. */
export const EXAMPLE_NETWORKS = DEFAULT_NETWORK_NAMES.map((network) => ({
  id: networkId(network),
  network,
}))
export const RECOVERED = mnemonicToAccount(TEST_PHRASE)
export const EXAMPLE_CREDENTIALS = {
  username: 'satoshi_n',
  password: 'correct horse battery staple',
}
export const txResult = (transaction: { result: { txId: string } }) => ({
  txId: transaction.result.txId,
})
export const KEY_PARAMS = { key: WALLET_KEY }
export const PROJECT_PARAMS = { projectId: LINK.id }
