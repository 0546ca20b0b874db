// DEMO DATA for the local devnets only: invented tokens, prices and links, not market data.

import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../networkNames'
import type { NetworkEntry } from '../networks'

export type SampleTokenLinks = {
  website: string
  twitter?: string
  telegram?: string
  discord?: string
  github?: string
  whitepaper?: string
}

export type SampleToken = {
  symbol: string
  name: string
  decimals: number
  /** Target price in USD as a decimal string; the seeded pools quote this price. */
  usdPrice: string
  /** Whole tokens as a decimal string; also the supply minted to the deployer. */
  circulatingSupply: string
  description: string
  industry: string
  tags: readonly string[]
  categories: readonly string[]
  links: SampleTokenLinks
  /** Also seed a token/wrapped-native pool, so some quotes can route through the native coin. */
  pairedWithNative: boolean
  /**
   * Deployed as CatalogPermitToken (OpenZeppelin's ERC20Permit): EIP-2612 `permit`, as USDC has
   * one on mainnet, so swaps from it take one signature inside the swap (DECISIONS §10.2).
   */
  permit?: true
}

export type SampleNativeCurrency = {
  name: string
  symbol: string
  decimals: 18
  usdPrice: string
}

/** Which contract a zoo token is: see ZooTokens.sol and CatalogToken.sol. */
export type ZooTokenKind = 'tetherStyle' | 'feeOnTransfer' | 'standard'

/**
 * A token of the zoo (DECISIONS §7.2): shaped like an awkward mainnet token and pooled with one
 * base token only, so the zoo's pairs across bases are reachable in 3 hops and no fewer.
 */
export type SampleZooToken = Omit<SampleToken, 'pairedWithNative'> & {
  kind: ZooTokenKind
  pooledWith: 'native' | 'stablecoin'
}

/** A pool side: a catalog token's symbol, or 'native' for the wrapped native coin. */
export type SamplePoolToken = string

/**
 * One liquidity position of a demo V3 pool: `usd` worth of both tokens at the catalog prices,
 * spread over ±`rangePercent` around the price (in price terms), or over every tick ('full').
 */
export type SampleV3Position = { rangePercent: number | 'full'; usd: number }

export type SampleV3Pool = {
  tokens: readonly [SamplePoolToken, SamplePoolToken]
  /** In hundredths of a bip (500 = 0.05 %). */
  fee: number
  positions: readonly SampleV3Position[]
}

export type SampleNetworkCatalog = {
  network: NetworkName
  chainName: string
  nativeCurrency: SampleNativeCurrency
  usdStablecoin: SampleToken
  /** Pooled in V2 with USDC (and the native coin where marked); most also in V3. */
  tokens: readonly SampleToken[]
  zoo: readonly SampleZooToken[]
  /** Catalog tokens with V3 pools only, as many newer tokens have on mainnet. */
  v3OnlyTokens: readonly SampleToken[]
  /** The concentrated-liquidity DEX: Uniswap V3 on ethereum, PancakeSwap V3 on altchain. */
  v3Pools: readonly SampleV3Pool[]
}

const demoUsdCoin: SampleToken = {
  symbol: 'USDC',
  name: 'Demo USD Coin',
  decimals: 6,
  usdPrice: '1',
  circulatingSupply: '60000000000',
  description: 'Demo dollar stablecoin; every demo pool quotes against it.',
  industry: 'Payments',
  tags: ['stablecoin', 'usd', 'demo'],
  categories: ['Stablecoins'],
  links: {
    website: 'https://example.org/demo/usdc',
    twitter: 'https://example.com/demo_usdc',
  },
  pairedWithNative: true,
  permit: true,
}

const ZOO_TAGS = ['demo', 'token-zoo'] as const

// The V3 layouts (DEMO DATA) follow mainnet's shape: the main pairs hold most of their depth in
// V3, concentrated within a few percent of the price and spread over several fee tiers, so V2's
// $10M pools are thin beside them; the native/USDC pair is deep in two tiers, so a large order is
// better split; the V3-only tokens pool with a non-base token (LINK, CAKE) far deeper than with
// the native coin, so their best routes run through it.
const near = (rangePercent: number, usd: number): SampleV3Position => ({ rangePercent, usd })
const full = (usd: number): SampleV3Position => ({ rangePercent: 'full', usd })
const M = 1_000_000

/** The same zoo on both devnets: every quirk on every network. */
const tokenZoo: readonly SampleZooToken[] = [
  {
    kind: 'tetherStyle',
    symbol: 'USDT',
    name: 'Demo Tether (USDT-style)',
    decimals: 6,
    usdPrice: '1',
    circulatingSupply: '40000000000',
    description:
      'Demo token shaped like USDT: transfer and approve return nothing, and a non-zero allowance must be reset to 0 before another; pooled with the wrapped native coin only.',
    industry: 'Payments',
    tags: [...ZOO_TAGS, 'stablecoin', 'no-return-values'],
    categories: ['Stablecoins'],
    links: { website: 'https://example.org/demo/usdt' },
    pooledWith: 'native',
  },
  {
    kind: 'feeOnTransfer',
    symbol: 'FOT',
    name: 'Demo Fee-on-Transfer Token',
    decimals: 18,
    usdPrice: '0.5',
    circulatingSupply: '1000000000',
    description:
      'Demo token that burns 3% of every transfer, transfers to and from pools included; pooled with USDC only.',
    industry: 'Community',
    tags: [...ZOO_TAGS, 'fee-on-transfer'],
    categories: ['Meme'],
    links: { website: 'https://example.org/demo/fot' },
    pooledWith: 'stablecoin',
  },
  {
    kind: 'standard',
    symbol: 'WHOLE',
    name: 'Demo Whole Token',
    decimals: 0,
    usdPrice: '40',
    circulatingSupply: '1000000',
    description: 'Demo token with 0 decimals: only whole units move; pooled with USDC only.',
    industry: 'Collectibles',
    tags: [...ZOO_TAGS, 'zero-decimals'],
    categories: ['Collectibles'],
    links: { website: 'https://example.org/demo/whole' },
    pooledWith: 'stablecoin',
  },
  {
    kind: 'standard',
    symbol: 'DEEP',
    name: 'Demo Deep-Decimals Token',
    decimals: 24,
    usdPrice: '0.02',
    circulatingSupply: '1000000000000',
    description: 'Demo token with 24 decimals; pooled with the wrapped native coin only.',
    industry: 'Infrastructure',
    tags: [...ZOO_TAGS, 'many-decimals'],
    categories: ['Infrastructure'],
    links: { website: 'https://example.org/demo/deep' },
    pooledWith: 'native',
  },
]

// The demo catalogs a devnet may list (the network table's `devnet.catalog`).
const DEMO_CATALOGS: Readonly<Record<NetworkEntry['devnet']['catalog'], SampleNetworkCatalog>> = {
  ethereum: {
    network: 'ethereum',
    chainName: 'Ethereum (local devnet)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18, usdPrice: '3000' },
    usdStablecoin: demoUsdCoin,
    tokens: [
      {
        symbol: 'WBTC',
        name: 'Demo Wrapped Bitcoin',
        decimals: 8,
        usdPrice: '65000',
        circulatingSupply: '150000',
        description: 'Demo bitcoin-backed token with 8 decimals.',
        industry: 'Digital assets',
        tags: ['bitcoin', 'wrapped', 'demo'],
        categories: ['Wrapped tokens', 'Store of value'],
        links: {
          website: 'https://example.org/demo/wbtc',
          twitter: 'https://example.com/demo_wbtc',
          github: 'https://example.org/demo/wbtc/source',
        },
        pairedWithNative: true,
      },
      {
        symbol: 'LINK',
        name: 'Demo Chainlink',
        decimals: 18,
        usdPrice: '15.5',
        circulatingSupply: '600000000',
        description: 'Demo oracle-network token.',
        industry: 'Infrastructure',
        tags: ['oracle', 'data', 'demo'],
        categories: ['Oracles', 'Infrastructure'],
        links: {
          website: 'https://example.org/demo/link',
          twitter: 'https://example.com/demo_link',
          discord: 'https://example.com/demo_link/discord',
          whitepaper: 'https://example.org/demo/link/whitepaper.pdf',
        },
        pairedWithNative: true,
      },
      {
        symbol: 'UNI',
        name: 'Demo Uniswap',
        decimals: 18,
        usdPrice: '7.25',
        circulatingSupply: '600000000',
        description: 'Demo governance token of a decentralised exchange; pooled with USDC only.',
        industry: 'Decentralised finance',
        tags: ['dex', 'governance', 'demo'],
        categories: ['DeFi', 'Governance'],
        links: {
          website: 'https://example.org/demo/uni',
          twitter: 'https://example.com/demo_uni',
          github: 'https://example.org/demo/uni/source',
        },
        pairedWithNative: false,
      },
    ],
    zoo: tokenZoo,
    v3OnlyTokens: [
      {
        symbol: 'ENS',
        name: 'Demo Name Service',
        decimals: 18,
        usdPrice: '21.4',
        circulatingSupply: '100000000',
        description:
          'Demo naming-service token; only in V3, deep against LINK and thin against the native coin.',
        industry: 'Infrastructure',
        tags: ['naming', 'identity', 'demo'],
        categories: ['Infrastructure'],
        links: { website: 'https://example.org/demo/ens' },
        pairedWithNative: false,
      },
      {
        symbol: 'AAVE',
        name: 'Demo Aave',
        decimals: 18,
        usdPrice: '152',
        circulatingSupply: '16000000',
        description: 'Demo lending-protocol token; only in V3, against the native coin.',
        industry: 'Decentralised finance',
        tags: ['lending', 'governance', 'demo'],
        categories: ['DeFi', 'Lending'],
        links: { website: 'https://example.org/demo/aave' },
        pairedWithNative: false,
      },
    ],
    v3Pools: [
      {
        tokens: ['native', 'USDC'],
        fee: 500,
        positions: [near(1, 8 * M), near(5, 12 * M), full(4 * M)],
      },
      {
        tokens: ['native', 'USDC'],
        fee: 3000,
        positions: [near(2, 8 * M), near(10, 8 * M), full(2 * M)],
      },
      {
        tokens: ['WBTC', 'native'],
        fee: 500,
        positions: [near(2, 6 * M), near(10, 6 * M), full(1 * M)],
      },
      { tokens: ['WBTC', 'native'], fee: 3000, positions: [near(5, 4 * M), full(2 * M)] },
      { tokens: ['WBTC', 'USDC'], fee: 3000, positions: [near(5, 6 * M), full(2 * M)] },
      { tokens: ['LINK', 'native'], fee: 3000, positions: [near(10, 6 * M), full(2 * M)] },
      // As deep as LINK's V2 pool, at the same fee: large LINK/USDC orders split between them.
      { tokens: ['LINK', 'USDC'], fee: 3000, positions: [full(10 * M)] },
      { tokens: ['UNI', 'native'], fee: 3000, positions: [near(10, 4 * M), full(1 * M)] },
      { tokens: ['ENS', 'LINK'], fee: 3000, positions: [near(10, 4 * M), full(1 * M)] },
      { tokens: ['ENS', 'native'], fee: 10000, positions: [full(100_000)] },
      { tokens: ['AAVE', 'native'], fee: 3000, positions: [near(10, 5 * M), full(1 * M)] },
    ],
  },
  altchain: {
    network: 'altchain',
    chainName: 'Altchain (local devnet)',
    nativeCurrency: { name: 'Alt', symbol: 'ALT', decimals: 18, usdPrice: '600' },
    usdStablecoin: demoUsdCoin,
    tokens: [
      {
        symbol: 'CAKE',
        name: 'Demo Cake',
        decimals: 18,
        usdPrice: '2.35',
        circulatingSupply: '290000000',
        description: 'Demo exchange reward token.',
        industry: 'Decentralised finance',
        tags: ['dex', 'yield', 'demo'],
        categories: ['DeFi'],
        links: {
          website: 'https://example.org/demo/cake',
          twitter: 'https://example.com/demo_cake',
          telegram: 'https://example.com/demo_cake/telegram',
        },
        pairedWithNative: true,
      },
      {
        symbol: 'BTCB',
        name: 'Demo Bitcoin',
        decimals: 18,
        usdPrice: '65000',
        circulatingSupply: '55000',
        description: 'Demo bridged bitcoin with 18 decimals.',
        industry: 'Digital assets',
        tags: ['bitcoin', 'bridged', 'demo'],
        categories: ['Wrapped tokens', 'Store of value'],
        links: {
          website: 'https://example.org/demo/btcb',
          twitter: 'https://example.com/demo_btcb',
        },
        pairedWithNative: true,
      },
      {
        symbol: 'DOGE',
        name: 'Demo Dogecoin',
        decimals: 8,
        usdPrice: '0.15',
        circulatingSupply: '145000000000',
        description: 'Demo low-priced token with 8 decimals; pooled with USDC only.',
        industry: 'Community',
        tags: ['meme', 'payments', 'demo'],
        categories: ['Meme'],
        links: {
          website: 'https://example.org/demo/doge',
          twitter: 'https://example.com/demo_doge',
          discord: 'https://example.com/demo_doge/discord',
        },
        pairedWithNative: false,
      },
    ],
    zoo: tokenZoo,
    v3OnlyTokens: [
      {
        symbol: 'XVS',
        name: 'Demo Venus',
        decimals: 18,
        usdPrice: '8.2',
        circulatingSupply: '30000000',
        description:
          'Demo lending-market token; only in V3, deep against CAKE and thin against the native coin.',
        industry: 'Decentralised finance',
        tags: ['lending', 'demo'],
        categories: ['DeFi', 'Lending'],
        links: { website: 'https://example.org/demo/xvs' },
        pairedWithNative: false,
      },
      {
        symbol: 'TWT',
        name: 'Demo Trust Wallet Token',
        decimals: 18,
        usdPrice: '1.1',
        circulatingSupply: '1000000000',
        description: 'Demo wallet token; only in V3, against the native coin.',
        industry: 'Wallets',
        tags: ['wallet', 'demo'],
        categories: ['Wallets'],
        links: { website: 'https://example.org/demo/twt' },
        pairedWithNative: false,
      },
    ],
    v3Pools: [
      {
        tokens: ['native', 'USDC'],
        fee: 100,
        positions: [near(0.5, 3 * M), near(2, 2 * M), full(M / 2)],
      },
      {
        tokens: ['native', 'USDC'],
        fee: 500,
        positions: [near(1, 8 * M), near(5, 12 * M), full(4 * M)],
      },
      {
        tokens: ['native', 'USDC'],
        fee: 2500,
        positions: [near(2, 8 * M), near(10, 8 * M), full(2 * M)],
      },
      {
        tokens: ['BTCB', 'native'],
        fee: 500,
        positions: [near(2, 6 * M), near(10, 6 * M), full(1 * M)],
      },
      { tokens: ['BTCB', 'USDC'], fee: 2500, positions: [near(5, 6 * M), full(2 * M)] },
      { tokens: ['CAKE', 'native'], fee: 2500, positions: [near(10, 6 * M), full(2 * M)] },
      // As deep as CAKE's V2 pool: large CAKE/USDC orders split between them.
      { tokens: ['CAKE', 'USDC'], fee: 2500, positions: [full(10 * M)] },
      { tokens: ['DOGE', 'USDC'], fee: 2500, positions: [near(10, 4 * M), full(1 * M)] },
      { tokens: ['XVS', 'CAKE'], fee: 2500, positions: [near(10, 4 * M), full(1 * M)] },
      { tokens: ['XVS', 'native'], fee: 10000, positions: [full(100_000)] },
      { tokens: ['TWT', 'native'], fee: 2500, positions: [near(10, 3 * M), full(1 * M)] },
    ],
  },
}

/** Every network's devnet catalog: the demo catalog its table entry names, under its own name. */
export const SAMPLE_CATALOG = Object.fromEntries(
  NETWORK_NAMES.map((network) => [
    network,
    {
      ...DEMO_CATALOGS[NETWORKS[network].devnet.catalog],
      network,
      chainName: `${NETWORKS[network].title} (local devnet)`,
    },
  ]),
) as Readonly<Record<NetworkName, SampleNetworkCatalog>>
