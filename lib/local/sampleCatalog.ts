// DEMO DATA for the local devnets only: invented tokens, prices and links, not market data.

export type LocalNetworkId = 'ethereum' | 'altchain'

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

export type SampleNetworkCatalog = {
  network: LocalNetworkId
  chainName: string
  nativeCurrency: SampleNativeCurrency
  usdStablecoin: SampleToken
  tokens: readonly SampleToken[]
  zoo: readonly SampleZooToken[]
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
}

const ZOO_TAGS = ['demo', 'token-zoo'] as const

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

export const SAMPLE_CATALOG: Readonly<Record<LocalNetworkId, SampleNetworkCatalog>> = {
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
  },
}
