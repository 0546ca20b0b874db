// DEMO DATA for the local devnets only: invented tokens, prices and links, not market data.
// What every demo catalog shares (lib/local/sampleCatalog.ts): the USD coin, the token zoo, and
// the shorthand of the V3 positions.

import type { SampleToken, SampleV3Position, SampleZooToken } from './sampleCatalogTypes'

export const demoUsdCoin: SampleToken = {
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
export const near = (rangePercent: number, usd: number): SampleV3Position => ({ rangePercent, usd })
export const full = (usd: number): SampleV3Position => ({ rangePercent: 'full', usd })
export const M = 1_000_000

/** The same zoo on both devnets: every quirk on every network. */
export const tokenZoo: readonly SampleZooToken[] = [
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
