// The network table (DECISIONS §9.5): one entry per network the service knows, read at run time.
// The rest follows from it: the names (lib/networkNames.ts: the schemas' enum, the <NET>_*
// variables, the chain clients), each network's settings (lib/config/networkSettings.ts: the
// functions read the entry, the environment only overrides it or carries RPC URLs), its
// functions (serverless.yml declares each operation once; the deploy rules make it a function per
// network, lib/networks/networkFunctions.ts), the examples of the API reference, and the local
// stack's devnet (port, chain id, DEX flavour, demo catalog). Which of them a stage serves is a
// setting, NETWORKS (the interface's two by default).
//
// Adding a network: an entry here, nothing else; docs/operations.md, "A network".

type Address = `0x${string}`

/** How the interface shapes a network's routes (DECISIONS §4: ethereum's and altchain's differ). */
export interface InterfaceShape {
  /** The quote answers the router call (`calldata`, `value`), as ethereum's; else only the path. */
  quoteCall: boolean
  /**
   * A route of its own swaps the native coin (`/swap/native/<net>/{key}`, as altchain's), and the
   * tokens route takes tokens only; else the tokens route takes the native coin on either side.
   */
  nativeSwapRoute: boolean
}

/** A Uniswap V2-style DEX: pairs from the factory's `getPair`, swaps through its router. */
export interface V2Dex {
  flavour: 'uniswap-v2' | 'pancakeswap-v2'
  factory: Address
  router: Address
  /** keccak256 of the pair's creation code, where routers derive pair addresses. */
  pairInitCodeHash: Address
  /** The swap fee in basis points (Uniswap V2: 30, PancakeSwap V2: 25). */
  feeBps: number
}

/** A Uniswap V3-style DEX: pools at CREATE2(deployer, (token0, token1, fee), init code hash). */
export interface V3Dex {
  flavour: 'uniswap-v3' | 'pancakeswap-v3'
  factory: Address
  /** The factory on Uniswap, PancakeV3PoolDeployer on PancakeSwap. */
  poolDeployer: Address
  poolInitCodeHash: Address
  /** In hundredths of a bip, as the factory enables them. */
  feeTiers: number[]
}

/**
 * Gas units a swap through the network's SwapRouter02 multicall spends, by part (DECISIONS §9.5,
 * §10.2): fitted by least squares from receipts of swaps executed on the network's devnet
 * (`npm run gas:fit`, tests/gas/), each `<NET>_GAS_PER_<PART>` may override one. A transaction's
 * gas is the sum of each part times its count in the route's shape (lib/routing/gas/gasModel.ts).
 */
export interface GasUnitsEntry {
  /** Once per transaction: 21,000 intrinsic, the calldata, the multicall and its deadline check. */
  swap: number
  /** Once per route (leg) of a split: its first call's transfer of the input into the pools. */
  route: number
  /** Once per router call of consecutive V2 hops (`swapExactTokensForTokens`). */
  v2Call: number
  /** Per V2 hop: the pair's swap, its transfer out and reserves. */
  v2Hop: number
  /** Per V3 hop (its own `exactInput` call): the pool's swap, callback and transfers. */
  v3Hop: number
  /** Per initialized tick a V3 hop crosses. */
  tickCrossed: number
  /** Per tick-bitmap word a V3 hop steps across without an initialized tick. */
  wordCrossed: number
  /** Per router call after a route's first: the router holds the token between and pays it. */
  routerPays: number
  /**
   * Per distinct token the swap moves besides its two ends (the wrapped coin counts as one):
   * the first touch of a token's contract and balances is cold (EIP-2929); later hops through a
   * token the swap already moved are warm, so hops cost less in a split through the same tokens.
   */
  connectorToken: number
  /** Per route when the native coin goes in: WETH's deposit instead of a `transferFrom`. */
  wrap: number
  /** Once when the native coin comes out: `unwrapWETH9` (WETH's withdraw, the coin sent). */
  unwrap: number
  /** Once when a split's routes pay the router: `sweepToken` of the output to the recipient. */
  sweep: number
  /** Per hop that moves a fee-on-transfer token: the fee's own balance writes and event. */
  feeOnTransferHop: number
  /** When the recipient held none of the output token: its balance slot written from zero. */
  freshBalance: number
  /** When the native coin goes to an account that does not exist yet (EIP-161 empty). */
  freshAccount: number
}

/**
 * An L2's L1 data fee (DECISIONS §10.2): every transaction pays its L1 fee beside its L2 gas, by
 * the OP Stack's GasPriceOracle predeploy, whose `getL1Fee(bytes)` the quote asks for the
 * unsigned transaction it quotes (lib/routing/gas/l1Fee.ts) and adds to `gasCostToken1`.
 */
export interface L1FeeEntry {
  /** The GasPriceOracle's address (the OP Stack's predeploy, on the devnet too). */
  oracle: Address
  /**
   * What the devnet's stand-in oracle (lib/local/GasPriceOracle.sol, set at startup by
   * lib/local/l1FeeOracle.ts) charges by: the Ecotone formula's L1 base fee and blob base fee
   * (wei) and their scalars (millionths).
   */
  devnet: {
    l1BaseFeeWei: bigint
    blobBaseFeeWei: bigint
    baseFeeScalar: number
    blobBaseFeeScalar: number
  }
}

export interface NetworkEntry {
  /** As people write it (the local devnet's chain name). */
  title: string
  nativeCurrency: { name: string; symbol: string }
  routes: InterfaceShape
  /** What a deployed stage uses (mainnet); every address can be overridden by its variable. */
  deployed: {
    chainId: number
    /** The wrapped native coin (WETH9-style), a base token of every route. */
    wrappedNative: Address
    usdStablecoin: Address
    v2: V2Dex
    v3: V3Dex
    /** A SwapRouter02-compatible router: V2 and V3 hops in one `multicall(deadline, bytes[])`. */
    swapRouter: Address
    /** Blocks after its own before a deposit or trade counts (DECISIONS §7.2). */
    confirmations: number
    /** Base tokens beside the wrapped coin and the stablecoin (at most 3). */
    baseTokens: Address[]
    /** Tokens a route may pass through (at most 6, deepest first; DECISIONS §8.1). */
    connectorTokens: Address[]
    /**
     * Whether the price history's backfill needs an archive node (`<NET>_ARCHIVE_RPC_URL`): a
     * network whose full nodes prune old state does (DECISIONS §8.3).
     */
    archiveForBackfill: boolean
  }
  /**
   * What the API reference shows for it (lib/openapi/networkExamples.ts): its routes' examples
   * swap the wrapped coin for the stablecoin and transfer the stablecoin, priced at these
   * illustrative figures (no market data).
   */
  examples: {
    /** The deployed stablecoin's symbol and decimals. */
    stablecoin: { symbol: string; decimals: number }
    /** The native coin's price in the stablecoin, whole units. */
    nativePrice: number
    /** A usual gas price, in wei. */
    gasPriceWei: bigint
  }
  /**
   * Gas units of a swap (GasUnitsEntry), fitted on the devnet, whose DEX contracts are the
   * deployed ones' builds (the tokens are the catalog's own); written by `npm run gas:fit`.
   */
  gas: GasUnitsEntry
  /** An L2's L1 data fee (L1FeeEntry); absent on an L1. */
  l1Fee?: L1FeeEntry
  /** Its local devnet (npm start, the tests). */
  devnet: {
    chainId: number
    /** The RPC port of `npm start` (the tests take free ports). */
    port: number
    /** The concentrated-liquidity DEX deployed from npm builds; the V2 DEX is Uniswap V2's. */
    v3: V3Dex['flavour']
    /** Which demo catalog it lists (lib/local/sampleCatalog.ts): its tokens, pools and prices. */
    catalog: 'ethereum' | 'altchain'
    /** The genesis base fee in wei (anvil's default 1 gwei where absent); an L2's is cheap. */
    baseFeeWei?: bigint
  }
}

const UNISWAP_V2_PAIR_INIT_CODE_HASH =
  '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'
const UNISWAP_V3_POOL_INIT_CODE_HASH =
  '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'

export const NETWORK_TABLE = {
  ethereum: {
    title: 'Ethereum',
    nativeCurrency: { name: 'Ether', symbol: 'ETH' },
    routes: { quoteCall: true, nativeSwapRoute: false },
    deployed: {
      chainId: 1,
      wrappedNative: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      usdStablecoin: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      v2: {
        flavour: 'uniswap-v2',
        factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
        router: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
        pairInitCodeHash: UNISWAP_V2_PAIR_INIT_CODE_HASH,
        feeBps: 30,
      },
      v3: {
        flavour: 'uniswap-v3',
        factory: '0x1F98431c8aD98523631AE4a59f267346ea31F984',
        poolDeployer: '0x1F98431c8aD98523631AE4a59f267346ea31F984',
        poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
        feeTiers: [500, 3000, 10000],
      },
      swapRouter: '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45',
      confirmations: 12,
      baseTokens: [],
      // USDT, DAI, WBTC.
      connectorTokens: [
        '0xdAC17F958D2ee523a2206206994597C13D831ec7',
        '0x6B175474E89094C44Da98b954EedeAC495271d0F',
        '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
      ],
      archiveForBackfill: true,
    },
    examples: {
      stablecoin: { symbol: 'USDC', decimals: 6 },
      nativePrice: 2650,
      gasPriceWei: 24_000_000_000n,
    },
    // Gas units fitted by `npm run gas:fit` (seed 40, 150 swaps a network)
    gas: {
      swap: 36_423,
      route: 14_526,
      v2Call: 23_355,
      v2Hop: 26_765,
      v3Hop: 57_168,
      tickCrossed: 35_168,
      wordCrossed: 5_021,
      routerPays: 5_997,
      connectorToken: 31_447,
      wrap: 25_199,
      unwrap: 37_460,
      sweep: 38_912,
      feeOnTransferHop: 5_364,
      freshBalance: 15_760,
      freshAccount: 28_182,
    },
    devnet: { chainId: 31337, port: 8545, v3: 'uniswap-v3', catalog: 'ethereum' },
  },
  // BNB Chain in deployed stages: PancakeSwap V2 and V3 and its SmartRouter.
  altchain: {
    title: 'Altchain',
    nativeCurrency: { name: 'Native coin', symbol: 'NATIVE' },
    routes: { quoteCall: false, nativeSwapRoute: true },
    deployed: {
      chainId: 56,
      wrappedNative: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
      usdStablecoin: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
      v2: {
        flavour: 'pancakeswap-v2',
        factory: '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73',
        router: '0x10ED43C718714eb63d5aA57B78B54704E256024E',
        pairInitCodeHash: '0x00fb7f630766e6a796048ea87d01acd3068e8ff67d078148a3fa3f4a84f69bd5',
        feeBps: 25,
      },
      v3: {
        flavour: 'pancakeswap-v3',
        factory: '0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865',
        poolDeployer: '0x41ff9AA7e16B8B1a8a8dc4f0eFacd93D02d071c9',
        poolInitCodeHash: '0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2',
        feeTiers: [100, 500, 2500, 10000],
      },
      swapRouter: '0x13f4EA83D0bd40E75C8222255bc855a974568Dd4',
      confirmations: 15,
      baseTokens: [],
      // USDT, BTCB, ETH (Binance-Peg).
      connectorTokens: [
        '0x55d398326f99059fF775485246999027B3197955',
        '0x7130d2A12B9BCbFAe4f2634d864A1Ee1Ce3Ead9c',
        '0x2170Ed0880ac9A755fd29B2688956BD959F933F8',
      ],
      archiveForBackfill: true,
    },
    // Binance-Peg USDC has 18 decimals.
    examples: {
      stablecoin: { symbol: 'USDC', decimals: 18 },
      nativePrice: 600,
      gasPriceWei: 1_000_000_000n,
    },
    // Gas units fitted by `npm run gas:fit` (seed 40, 150 swaps a network)
    gas: {
      swap: 29_681,
      route: 26_081,
      v2Call: 30_374,
      v2Hop: 15_462,
      v3Hop: 59_680,
      tickCrossed: 34_915,
      wordCrossed: 0,
      routerPays: 3_973,
      connectorToken: 42_162,
      wrap: 28_220,
      unwrap: 36_877,
      sweep: 41_334,
      feeOnTransferHop: 6_213,
      freshBalance: 14_581,
      freshAccount: 27_481,
    },
    devnet: { chainId: 31338, port: 8546, v3: 'pancakeswap-v3', catalog: 'altchain' },
  },
  // An L2 (Base in deployed stages): the native coin is ether, gas costs a fraction of a gwei,
  // Uniswap V3 and Uniswap V2 as deployed there (the same pool and pair init code as mainnet's),
  // routed like ethereum (the quote answers the router call, no native route of its own).
  base: {
    title: 'Base',
    nativeCurrency: { name: 'Ether', symbol: 'ETH' },
    routes: { quoteCall: true, nativeSwapRoute: false },
    deployed: {
      chainId: 8453,
      // The OP Stack's predeployed WETH9.
      wrappedNative: '0x4200000000000000000000000000000000000006',
      usdStablecoin: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      v2: {
        flavour: 'uniswap-v2',
        factory: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
        router: '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
        pairInitCodeHash: UNISWAP_V2_PAIR_INIT_CODE_HASH,
        feeBps: 30,
      },
      v3: {
        flavour: 'uniswap-v3',
        factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
        poolDeployer: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
        poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
        feeTiers: [100, 500, 3000, 10000],
      },
      swapRouter: '0x2626664c2603336E57B271c5C0b26F421741e481',
      // 2-second blocks: 20 seconds, past the sequencer's usual reorg depth.
      confirmations: 10,
      baseTokens: [],
      // USDbC (bridged USDC), DAI, cbBTC.
      connectorTokens: [
        '0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA',
        '0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb',
        '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf',
      ],
      archiveForBackfill: true,
    },
    examples: {
      stablecoin: { symbol: 'USDC', decimals: 6 },
      nativePrice: 2650,
      gasPriceWei: 10_000_000n,
    },
    // Gas units fitted by `npm run gas:fit` (seed 40, 150 swaps a network)
    gas: {
      swap: 36_317,
      route: 14_465,
      v2Call: 23_126,
      v2Hop: 27_128,
      v3Hop: 57_393,
      tickCrossed: 35_449,
      wordCrossed: 4_672,
      routerPays: 6_054,
      connectorToken: 30_993,
      wrap: 25_144,
      unwrap: 37_407,
      sweep: 38_488,
      feeOnTransferHop: 5_199,
      freshBalance: 16_117,
      freshAccount: 27_951,
    },
    // Base's figures of late 2024 (L1 base fee about 10 gwei, blobs nearly free): about a tenth
    // of a swap's L2 fee at the devnet's 0.01 gwei.
    l1Fee: {
      oracle: '0x420000000000000000000000000000000000000F',
      devnet: {
        l1BaseFeeWei: 10_000_000_000n,
        blobBaseFeeWei: 1n,
        baseFeeScalar: 2_269,
        blobBaseFeeScalar: 1_055_762,
      },
    },
    // Cheap gas from the first block: a base fee of 0.01 gwei (anvil's default is 1 gwei).
    devnet: {
      chainId: 31339,
      port: 8547,
      v3: 'uniswap-v3',
      catalog: 'ethereum',
      baseFeeWei: 10_000_000n,
    },
  },
} as const satisfies Record<string, NetworkEntry>

/** The networks a stage serves unless NETWORKS names others: the interface's two. */
export const DEFAULT_NETWORKS = ['ethereum', 'altchain'] as const

/** The table's entries under the entry type (the table itself keeps its literal types). */
export const NETWORK_ENTRIES: Readonly<Record<keyof typeof NETWORK_TABLE, NetworkEntry>> =
  NETWORK_TABLE
