import { SignJWT } from 'jose'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  type Hex,
  keccak256,
  parseUnits,
  toHex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { swapRouterCall } from '../chain/swapRouterCall'
import type { UnsignedTransaction } from '../clientSigning/unsignedTransaction'
import { NATIVE_COIN } from '../constants'
import { nameBasedUuid } from '../db/ids'
import { networkId } from '../db/network'
import { projectId } from '../db/project'
import { formatTimestamp } from '../formatTimestamp'

// The values the routes' examples share (each route's example is in its doc file beside the
// handler, lib/openapi/routeDoc.ts): one wallet, one catalog, one swap per network. Each example is
// parsed with its route's own schemas by tests/unit/lib/openapi/openApiDocument.test.ts, and the
// linters check each against the document. Mainnet addresses: Uniswap V2/V3 and SwapRouter02 on
// Ethereum (chain 1), PancakeSwap V2/V3 and its SmartRouter on BNB Chain (56). The wallet is
// anvil's public test account 3, so signatures and the submitted transactions are real.

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

const RECIPIENT: Address = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
export const ETHEREUM = {
  chainId: 1,
  swapRouter: '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45',
  weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  link: '0x514910771AF9Ca656af840dff83E8264EcF986CA',
} as const
export const ALTCHAIN = {
  chainId: 56,
  swapRouter: '0x13f4EA83D0bd40E75C8222255bc855a974568Dd4',
  wbnb: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
  cake: '0x0E09FaBB73Bd3Ade0a17ECC321fD13a19e81cE82',
} as const
const DEADLINE = 1_795_000_000n
const FEES = {
  maxFeePerGas: toHex(24_000_000_000n),
  maxPriorityFeePerGas: toHex(1_000_000_000n),
}

function unsigned(
  chainId: number,
  nonce: number,
  fields: {
    kind: UnsignedTransaction['kind']
    description: string
    gas: bigint
    to: Address
    data: Hex
    value?: bigint
  },
): UnsignedTransaction {
  return {
    kind: fields.kind,
    description: fields.description,
    type: 'eip1559',
    chainId,
    nonce,
    gas: toHex(fields.gas),
    ...FEES,
    to: fields.to,
    data: fields.data,
    value: toHex(fields.value ?? 0n),
  }
}

/** One hop of an example route (DECISIONS §8.1), amounts in base units. */
interface ExampleHop {
  protocol: 'v2' | 'v3'
  pool: Address
  fee?: number
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
}

interface ExampleSwap {
  chainId: number
  swapRouter: Address
  symbolIn: string
  /** Whole units of the input (18 decimals in these examples). */
  amountIn: string
  symbolOut: string
  decimalsOut: number
  slippageBps: number
  /** Each leg of the split with its share; legs share no pool. */
  route: { shareBps: number; hops: ExampleHop[] }[]
  priceImpactBps: number
  gasEstimate: number
  gasCostToken1: bigint
  blockNumber: number
  nativeIn?: boolean
}

/** The quote fields of an example swap: the seed's, the route's (§8.1), and its router call. */
function exampleQuote(swap: ExampleSwap) {
  const amountOut = swap.route.reduce(
    (sum, leg) => sum + (leg.hops[leg.hops.length - 1]?.amountOut ?? 0n),
    0n,
  )
  const amountOutMin = (amountOut * BigInt(10_000 - swap.slippageBps)) / 10_000n
  const largest = swap.route[0]?.hops ?? []
  const call = swapRouterCall({
    legs: swap.route.map((leg) => ({
      amountIn: leg.hops[0]?.amountIn ?? 0n,
      hops: leg.hops.map((hop) => ({ ...hop, fee: hop.fee ?? 0 })),
    })),
    amountOutMin,
    recipient: WALLET,
    deadline: DEADLINE,
    nativeIn: swap.nativeIn ?? false,
    nativeOut: false,
  })
  return {
    call,
    amountOutMin,
    quote: {
      quote: Number(formatUnits(amountOut, swap.decimalsOut)),
      amount: Number(swap.amountIn),
      decimal: swap.decimalsOut,
      amountOutMin: toHex(amountOutMin),
      path: [largest[0]?.tokenIn ?? NATIVE_COIN, ...largest.map((hop) => hop.tokenOut)],
      amountOut: amountOut.toString(),
      route: swap.route.map((leg) => ({
        shareBps: leg.shareBps,
        hops: leg.hops.map((hop) => ({
          ...hop,
          amountIn: hop.amountIn.toString(),
          amountOut: hop.amountOut.toString(),
        })),
      })),
      priceImpactBps: swap.priceImpactBps,
      gasEstimate: swap.gasEstimate,
      gasCostToken1: swap.gasCostToken1.toString(),
      to: swap.swapRouter,
      blockNumber: swap.blockNumber,
    },
  }
}

/** A prepare example: the approval when `approve`, then the swap through the router. */
function swapExample(swap: ExampleSwap, nonce: number, approve: boolean) {
  const tokenIn = swap.route[0]?.hops[0]?.tokenIn ?? NATIVE_COIN
  const amountIn = parseUnits(swap.amountIn, 18)
  const { call, amountOutMin, quote } = exampleQuote(swap)
  const approval = unsigned(swap.chainId, nonce, {
    kind: 'approval',
    description: `approve ${swap.amountIn} ${swap.symbolIn} for the router`,
    gas: 69_300n,
    to: tokenIn,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [swap.swapRouter, amountIn],
    }),
  })
  return {
    body: {
      amount: swap.amountIn,
      address0: swap.nativeIn ? NATIVE_COIN : tokenIn,
      decimals0: 18,
      address1: quote.path[quote.path.length - 1] as Address,
      decimals1: swap.decimalsOut,
      slippageBps: swap.slippageBps,
    },
    result: {
      transactions: [
        ...(approve ? [approval] : []),
        unsigned(swap.chainId, approve ? nonce + 1 : nonce, {
          kind: 'swap',
          description: `swap ${swap.amountIn} ${swap.symbolIn} for at least ${formatUnits(amountOutMin, swap.decimalsOut)} ${swap.symbolOut}`,
          gas: 231_000n,
          to: swap.swapRouter,
          value: call.value,
          data: call.data,
        }),
      ],
      quote,
    },
  }
}

// 40 LINK for USDC split over Uniswap V3 (75 %) and V2 (25 %), each through WETH.
const linkForUsdcSwap: ExampleSwap = {
  chainId: ETHEREUM.chainId,
  swapRouter: ETHEREUM.swapRouter,
  symbolIn: 'LINK',
  amountIn: '40',
  symbolOut: 'USDC',
  decimalsOut: 6,
  slippageBps: 50,
  route: [
    {
      shareBps: 7_500,
      hops: [
        {
          protocol: 'v3',
          pool: '0xa6Cc3C2531FdaA6Ae1A3CA84c2855806728693e8',
          fee: 3000,
          tokenIn: ETHEREUM.link,
          tokenOut: ETHEREUM.weth,
          amountIn: parseUnits('30', 18),
          amountOut: 158_402_117_306_145_911n,
        },
        {
          protocol: 'v3',
          pool: '0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640',
          fee: 500,
          tokenIn: ETHEREUM.weth,
          tokenOut: ETHEREUM.usdc,
          amountIn: 158_402_117_306_145_911n,
          amountOut: 420_318_442n,
        },
      ],
    },
    {
      shareBps: 2_500,
      hops: [
        {
          protocol: 'v2',
          pool: '0xa2107FA5B38d9bbd2C461D6EDf11B11A50F6b974',
          tokenIn: ETHEREUM.link,
          tokenOut: ETHEREUM.weth,
          amountIn: parseUnits('10', 18),
          amountOut: 52_690_550_917_002_101n,
        },
        {
          protocol: 'v2',
          pool: '0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc',
          tokenIn: ETHEREUM.weth,
          tokenOut: ETHEREUM.usdc,
          amountIn: 52_690_550_917_002_101n,
          amountOut: 139_672_087n,
        },
      ],
    },
  ],
  priceImpactBps: 31,
  gasEstimate: 360_000,
  gasCostToken1: 23_328_000n,
  blockNumber: 21_004_510,
}
export const linkForUsdc = swapExample(linkForUsdcSwap, 7, true)

// 40 CAKE for WBNB in PancakeSwap V3's 0.25 % pool.
export const cakeForWbnb = swapExample(
  {
    chainId: ALTCHAIN.chainId,
    swapRouter: ALTCHAIN.swapRouter,
    symbolIn: 'CAKE',
    amountIn: '40',
    symbolOut: 'WBNB',
    decimalsOut: 18,
    slippageBps: 50,
    route: [
      {
        shareBps: 10_000,
        hops: [
          {
            protocol: 'v3',
            pool: '0x133B3D95bAD5405d14d53473671200e9342896BF',
            fee: 2500,
            tokenIn: ALTCHAIN.cake,
            tokenOut: ALTCHAIN.wbnb,
            amountIn: parseUnits('40', 18),
            amountOut: 152_836_214_009_312_448n,
          },
        ],
      },
    ],
    priceImpactBps: 2,
    gasEstimate: 160_000,
    gasCostToken1: 160_000_000_000_000n,
    blockNumber: 44_120_388,
  },
  7,
  true,
)

// 0.5 BNB for CAKE in PancakeSwap V2's pair: the router wraps the coin sent as value.
export const bnbForCake = swapExample(
  {
    chainId: ALTCHAIN.chainId,
    swapRouter: ALTCHAIN.swapRouter,
    symbolIn: 'BNB',
    amountIn: '0.5',
    symbolOut: 'CAKE',
    decimalsOut: 18,
    slippageBps: 100,
    nativeIn: true,
    route: [
      {
        shareBps: 10_000,
        hops: [
          {
            protocol: 'v2',
            pool: '0x0eD7e52944161450477ee417DE9Cd3a859b14fD0',
            tokenIn: ALTCHAIN.wbnb,
            tokenOut: ALTCHAIN.cake,
            amountIn: parseUnits('0.5', 18),
            amountOut: 130_004_518_992_100_551_337n,
          },
        ],
      },
    ],
    priceImpactBps: 4,
    gasEstimate: 140_000,
    gasCostToken1: 36_400_000_000_000_000n,
    blockNumber: 44_120_388,
  },
  3,
  false,
)

const transferExample = (chainId: number, token: Address, symbol: string) => ({
  body: { to: RECIPIENT, amount: '12.5', token, decimals: 18 },
  result: {
    transactions: [
      unsigned(chainId, 4, {
        kind: 'transfer',
        description: `transfer 12.5 ${symbol} to ${RECIPIENT}`,
        gas: 78_000n,
        to: token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [RECIPIENT, parseUnits('12.5', 18)],
        }),
      }),
    ],
  },
})

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

export const linkForUsdcQuote = exampleQuote({ ...linkForUsdcSwap, slippageBps: 50 })

export const EXAMPLE_NETWORKS = [
  { id: networkId('ethereum'), network: 'ethereum' },
  { id: networkId('altchain'), network: 'altchain' },
]
export const RECOVERED = mnemonicToAccount(TEST_PHRASE)
export const EXAMPLE_CREDENTIALS = {
  username: 'satoshi_n',
  password: 'correct horse battery staple',
}
export const txResult = (transaction: { result: { txId: string } }) => ({
  txId: transaction.result.txId,
})
export const ethereumTransfer = transferExample(ETHEREUM.chainId, ETHEREUM.link, 'LINK')
export const altchainTransfer = transferExample(ALTCHAIN.chainId, ALTCHAIN.cake, 'CAKE')
export const KEY_PARAMS = { key: WALLET_KEY }
export const PROJECT_PARAMS = { projectId: LINK.id }
