// The shape of a devnet's demo catalog (lib/local/sampleCatalog.ts): its tokens, the zoo's, and
// its V3 pools.

import type { NetworkName } from '../networkNames'

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
