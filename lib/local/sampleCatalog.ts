// DEMO DATA for the local devnets only: invented tokens, prices and links, not market data.

import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../networkNames'
import type { NetworkEntry } from '../networks'
import { demoUsdCoin, full, M, near, tokenZoo } from './demoTokens'
import type { SampleNetworkCatalog } from './sampleCatalogTypes'

export type * from './sampleCatalogTypes'

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
