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

// Request and result examples of every route: what a client sends (path, query and body values,
// query integers as the integers the document types them as) and the `result` it gets back. Each
// is parsed with its route's own schemas by tests/lib/openapi/openApiDocument.test.ts, and the
// linters check each against the document. Mainnet addresses: Uniswap V2/V3 and SwapRouter02 on
// Ethereum (chain 1), PancakeSwap V2/V3 and its SmartRouter on BNB Chain (56). The wallet is anvil's public test account 3, so signatures
// and the submitted transactions are real.

export interface RouteExample {
  params?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: unknown
  result: unknown
}

// The published test mnemonic of anvil and hardhat: never a real wallet.
const TEST_PHRASE = 'test test test test test test test test test test test junk'
const EXAMPLE_SIGNER = mnemonicToAccount(TEST_PHRASE, { addressIndex: 3 })
const WALLET = EXAMPLE_SIGNER.address
const WALLET_KEY = keyOf(EXAMPLE_SIGNER)
function keyOf(account: ReturnType<typeof mnemonicToAccount>): Hex {
  const { privateKey } = account.getHdKey()
  if (!privateKey) throw new Error('an HD account always has a private key')
  return toHex(privateKey)
}

const RECIPIENT: Address = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
const ETHEREUM = {
  chainId: 1,
  swapRouter: '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45',
  weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  link: '0x514910771AF9Ca656af840dff83E8264EcF986CA',
} as const
const ALTCHAIN = {
  chainId: 56,
  swapRouter: '0x13f4EA83D0bd40E75C8222255bc855a974568Dd4',
  wbnb: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
  cake: '0x0E09FaBB73Bd3Ade0a17ECC321fD13a19e81cE82',
} as const
const DEADLINE = 1_795_000_000n
const FEES = { maxFeePerGas: toHex(24_000_000_000n), maxPriorityFeePerGas: toHex(1_000_000_000n) }

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
const linkForUsdc = swapExample(linkForUsdcSwap, 7, true)

// 40 CAKE for WBNB in PancakeSwap V3's 0.25 % pool.
const cakeForWbnb = swapExample(
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
const bnbForCake = swapExample(
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
async function submitExample(prepared: { result: { transactions: UnsignedTransaction[] } }) {
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
const ACCOUNT_ID = '0b3c9a2e-5f4d-4e8b-9c1a-7d6e5f4a3b2c'

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

async function tokenPair(audience: 'wallet' | 'account', subject: string, serial: number) {
  return {
    access: await exampleToken(audience, subject, 'access', serial),
    refresh: await exampleToken(audience, subject, 'refresh', serial),
  }
}

// Sign-in with Ethereum, as lib/auth/siwe.ts builds the message (a deployed stage's settings).
const NONCE = 481_516_234_200
const SIGN_IN_MESSAGE = createSiweMessage({
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
const LINK = {
  id: projectId('ethereum', ETHEREUM.link),
  name: 'Chainlink',
  address: ETHEREUM.link,
  symbol: 'LINK',
  decimals: 18,
  network: 'ethereum',
}
const USDC = {
  id: projectId('ethereum', ETHEREUM.usdc),
  name: 'USD Coin',
  address: ETHEREUM.usdc,
  symbol: 'USDC',
  decimals: 6,
  network: 'ethereum',
}
const CREATED_AT = new Date('2026-03-02T09:15:00.000Z')
const NOW = new Date('2026-11-21T20:00:00.000Z')
const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

const project = {
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
function history(key: 'hour' | 'day', stepMs: number, prices: number[]) {
  return {
    history: prices.map((avgPrice, index) => ({
      avgPrice,
      [key]: formatTimestamp(new Date(NOW.getTime() - (prices.length - 1 - index) * stepMs)),
    })),
  }
}

const SWAP_HASH = '0x9a1c3b0e4f7d2a6c8b5e1f0d3c7a9b2e4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a3c'
const tradeRecord = {
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

const linkForUsdcQuote = exampleQuote({ ...linkForUsdcSwap, slippageBps: 50 })

/** Examples keyed by the function's name in serverless.yml. */
export async function routeExamples(): Promise<Record<string, RouteExample>> {
  const walletTokens = await tokenPair('wallet', WALLET, 1)
  const accountTokens = await tokenPair('account', ACCOUNT_ID, 1)
  const networks = [
    { id: networkId('ethereum'), network: 'ethereum' },
    { id: networkId('altchain'), network: 'altchain' },
  ]
  const recovered = mnemonicToAccount(TEST_PHRASE)
  const credentials = { username: 'satoshi_n', password: 'correct horse battery staple' }
  const txResult = (transaction: { result: { txId: string } }) => ({
    txId: transaction.result.txId,
  })
  const submittedLinkForUsdc = await submitExample(linkForUsdc)
  const submittedCakeForWbnb = await submitExample(cakeForWbnb)
  const submittedBnbForCake = await submitExample(bnbForCake)
  const ethereumTransfer = transferExample(ETHEREUM.chainId, ETHEREUM.link, 'LINK')
  const altchainTransfer = transferExample(ALTCHAIN.chainId, ALTCHAIN.cake, 'CAKE')
  const keyParams = { key: WALLET_KEY }
  const projectParams = { projectId: LINK.id }
  return {
    listNetworks: { result: { networks } },
    getNonce: { params: { address: WALLET }, result: { nonce: NONCE, message: SIGN_IN_MESSAGE } },
    loginWallet: {
      body: {
        address: WALLET,
        signature: await EXAMPLE_SIGNER.signMessage({ message: SIGN_IN_MESSAGE }),
        nonce: NONCE,
      },
      result: walletTokens,
    },
    refreshWalletSession: { result: await tokenPair('wallet', WALLET, 2) },
    logoutWallet: { result: {} },
    generateMnemonic: { result: { mnemonic: TEST_PHRASE } },
    createWallet: {
      body: { mnemonic: TEST_PHRASE, index: 3 },
      result: { address: WALLET, privateKey: WALLET_KEY },
    },
    recoverWalletFromMnemonic: {
      body: { mnemonic: TEST_PHRASE },
      result: { address: recovered.address, privateKey: keyOf(recovered) },
    },
    recoverWalletFromKey: {
      body: { privateKey: WALLET_KEY.slice(2) },
      result: { address: WALLET, privateKey: WALLET_KEY },
    },
    registerAccount: { body: credentials, result: {} },
    loginAccount: { body: credentials, result: { token: accountTokens } },
    refreshAccountSession: { result: { token: await tokenPair('account', ACCOUNT_ID, 2) } },
    logoutAccount: { result: {} },
    listSwapTokens: {
      query: { sort: 'symbol', direction: 'ASC', limit: 2, offset: 0 },
      result: { tokens: [LINK, USDC] },
    },
    quoteAltchain: {
      query: {
        amount: '40',
        address0: ALTCHAIN.cake,
        decimals0: 18,
        address1: ALTCHAIN.wbnb,
        decimals1: 18,
        slippageBps: 50,
      },
      result: { ...cakeForWbnb.result.quote, gasPriceWei: 1_000_000_000 },
    },
    quoteEthereum: {
      query: {
        amount: '40',
        address0: ETHEREUM.link,
        decimals0: 18,
        address1: ETHEREUM.usdc,
        decimals1: 6,
        slippageBps: 50,
        recipient: WALLET,
      },
      result: {
        ...linkForUsdcQuote.quote,
        calldata: linkForUsdcQuote.call.data,
        value: toHex(linkForUsdcQuote.call.value),
        gasPriceWei: 24_000_000_000,
      },
    },
    swapNativeAltchain: {
      params: keyParams,
      body: bnbForCake.body,
      result: txResult(submittedBnbForCake),
    },
    swapTokensAltchain: {
      params: keyParams,
      body: cakeForWbnb.body,
      result: txResult(submittedCakeForWbnb),
    },
    swapTokensEthereum: {
      params: keyParams,
      body: linkForUsdc.body,
      result: txResult(submittedLinkForUsdc),
    },
    transferAltchain: {
      params: keyParams,
      body: altchainTransfer.body,
      result: txResult(await submitExample(altchainTransfer)),
    },
    transferEthereum: {
      params: keyParams,
      body: ethereumTransfer.body,
      result: txResult(await submitExample(ethereumTransfer)),
    },
    prepareSwapTokensEthereum: linkForUsdc,
    prepareSwapTokensAltchain: cakeForWbnb,
    prepareSwapNativeAltchain: bnbForCake,
    prepareTransferEthereum: ethereumTransfer,
    prepareTransferAltchain: altchainTransfer,
    submitEthereum: submittedLinkForUsdc,
    submitAltchain: submittedCakeForWbnb,
    attachWalletNetworks: { body: { networkIds: networks.map(({ id }) => id) }, result: {} },
    getWalletBalances: {
      result: {
        networksBalance: [
          { network: 'ethereum', balance: 1.25, balanceExact: '1.25' },
          { network: 'altchain', balance: 0.4, balanceExact: '0.400000000000000001' },
        ],
      },
    },
    listWatchlist: {
      result: {
        watchlist: [
          {
            id: LINK.id,
            symbol: LINK.symbol,
            name: LINK.name,
            price: 14.02,
            price_change_daily: -1.8,
            price_change_daily_positive: false,
          },
        ],
      },
    },
    addToWatchlist: { params: projectParams, result: {} },
    removeFromWatchlist: { params: projectParams, result: {} },
    getProjectDetails: { params: projectParams, result: { project } },
    getDailyPriceHistory: {
      params: projectParams,
      result: history('hour', HOUR_MS, [14.31, 14.12, 14.02]),
    },
    getMonthlyPriceHistory: {
      params: projectParams,
      result: history('day', DAY_MS, [13.2, 13.74, 14.02]),
    },
    getYearlyPriceHistory: {
      params: projectParams,
      result: {
        history: [
          { avgPrice: 12.9, month: formatTimestamp(new Date('2026-09-01T00:00:00.000Z')) },
          { avgPrice: 13.45, month: formatTimestamp(new Date('2026-10-01T00:00:00.000Z')) },
          { avgPrice: 14.02, month: formatTimestamp(new Date('2026-11-01T00:00:00.000Z')) },
        ],
      },
    },
    listTrades: {
      query: { limit: 20, offset: 0, sort: 'createdAt', direction: 'DESC' },
      result: {
        count: 2,
        trades: [
          {
            id: tradeRecord.id,
            type: 'swap',
            status: 'successful',
            amount: 40,
            amountExact: '40',
          },
          {
            id: '019a8f2d-9e0b-7c4a-8d1e-2f3a4b5c6d7e',
            type: 'approval',
            status: 'successful',
            amount: 40,
            amountExact: '40',
          },
        ],
      },
    },
    getTradeByHash: { params: { hash: SWAP_HASH }, result: tradeRecord },
    getTradeById: { params: { tradeId: tradeRecord.id }, result: tradeRecord },
  }
}
