import {
  type Address,
  type Chain,
  createTestClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  maxUint256,
  parseEther,
  parseGwei,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { getBalance, getBlock, getTransactionCount, setBalance } from 'viem/actions'
import {
  catalogTokenAbi,
  loadCatalogTokenArtifact,
  loadPermitTokenArtifact,
  loadZooTokenArtifacts,
} from './catalogTokenArtifact'
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../networkNames'
import { installL1FeeOracle } from './l1FeeOracle'
import { SAMPLE_CATALOG, type SampleToken, type SampleZooToken } from './sampleCatalog'
import { type PlannedTransaction, planV3Market, type V3Deployment } from './deployV3'
import { sendInNonceOrder } from './sendInNonceOrder'
import { type DeployedPair, pairOf, planLiquidity, type PoolPlan } from './v2Liquidity'
import {
  loadUniswapV2Artifacts,
  uniswapV2FactoryAbi,
  uniswapV2Router02Abi,
} from './uniswapV2Artifacts'

export type DeployDexParameters = {
  rpcUrl: string
  chainId: number
  network: NetworkName
  /** Defaults to anvil's account 0. */
  deployerPrivateKey?: Hex
}

export type DeployedToken = SampleToken & { address: Address }

export type DeployedZooToken = SampleZooToken & { address: Address }

export type { DeployedPair } from './v2Liquidity'

export type DexDeployment = {
  network: NetworkName
  chainId: number
  rpcUrl: string
  deployer: Address
  wrappedNative: Address
  factory: Address
  router: Address
  usdStablecoin: Address
  tokens: DeployedToken[]
  /** The token zoo (DECISIONS §7.2), each pooled with one base token only. */
  zoo: DeployedZooToken[]
  /** Catalog tokens pooled in V3 only. */
  v3OnlyTokens: DeployedToken[]
  pairs: DeployedPair[]
  /** The concentrated-liquidity DEX beside V2 (DECISIONS §8.1): every pool it seeded. */
  v3: V3Deployment
  /** SwapRouter02-compatible: V2 and V3 hops in one `multicall(deadline, bytes[])`. */
  swapRouter: Address
}

/** Chain ids the local stack gives each devnet (the network table's `devnet.chainId`). */
export const DEVNET_CHAIN_IDS = Object.fromEntries(
  NETWORK_NAMES.map((network) => [network, NETWORKS[network].devnet.chainId]),
) as Record<NetworkName, number>

/** anvil's well-known account 0 (from its default mnemonic); devnet use only. */
export const ANVIL_DEPLOYER_PRIVATE_KEY =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const

export { POOL_SIDE_USD } from './v2Liquidity'

// Covers gas for the whole deployment on top of the native liquidity.
const NATIVE_GAS_ALLOWANCE = parseEther('100')
const RECEIPT_POLL_MS = 20

export function defineDevnetChain({
  network,
  chainId,
  rpcUrl,
}: Pick<DeployDexParameters, 'network' | 'chainId' | 'rpcUrl'>): Chain {
  const { chainName, nativeCurrency } = SAMPLE_CATALOG[network]
  return defineChain({
    id: chainId,
    name: chainName,
    nativeCurrency: { name: nativeCurrency.name, symbol: nativeCurrency.symbol, decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  })
}

/** A deployment whose every address is known, and the transactions that make it real. */
export type PlannedDex = {
  deployment: DexDeployment
  /** Sends every planned transaction and resolves once each is mined and succeeded. */
  send(): Promise<void>
}

/**
 * Deploys WETH9, UniswapV2Factory and Router02 plus the sample catalog tokens on an anvil devnet,
 * then seeds token/USDC, token/wrapped-native and wrapped-native/USDC pools at the catalog prices;
 * and the token zoo, each pooled with its one base token. Beside V2, the network's V3 DEX with
 * its router and quoter, and the catalog's V3 layout (see `planV3Market`).
 */
export async function deployDex(parameters: DeployDexParameters): Promise<DexDeployment> {
  const planned = await planDex(parameters)
  await planned.send()
  return planned.deployment
}

/**
 * `deployDex` in two steps: the plan gives every address before any transaction is sent (the
 * local stack starts serverless offline with them while the devnets are filled), and `send`
 * sends the plan. Every transaction is signed up front with an explicit nonce and sent without
 * waiting for the previous receipt; contract and pair addresses are derived, not read back.
 */
export async function planDex({
  rpcUrl,
  chainId,
  network,
  deployerPrivateKey = ANVIL_DEPLOYER_PRIVATE_KEY,
}: DeployDexParameters): Promise<PlannedDex> {
  const catalog = SAMPLE_CATALOG[network]
  const account = privateKeyToAccount(deployerPrivateKey)
  const deployer = account.address
  const client = deployerClient({ network, chainId, rpcUrl })
  const [firstNonce, latestBlock, balance, bytecodeOf] = await Promise.all([
    getTransactionCount(client, { address: deployer, blockTag: 'pending' }),
    getBlock(client, { blockTag: 'latest' }),
    getBalance(client, { address: deployer }),
    tokenBytecodes(),
  ])

  const planned: PlannedTransaction[] = []
  const plan = (tx: PlannedTransaction): Address => {
    planned.push(tx)
    return getContractAddress({ from: deployer, nonce: BigInt(firstNonce + planned.length - 1) })
  }
  const { wrappedNative, factory, router } = planV2Core(plan, deployer)
  const { stablecoin, tokens, zoo, v3OnlyTokens } = planCatalogTokens(plan, {
    network,
    deployer,
    router,
    bytecodeOf,
  })
  const pools = v2Pools(stablecoin, tokens, zoo)
  const { transactions, nativeAmount } = planLiquidity(pools, {
    router,
    deployer,
    nativeUsdPrice: catalog.nativeCurrency.usdPrice,
  })
  transactions.forEach(plan)
  const market = await planV3Market({
    network,
    plan,
    wrappedNative: {
      symbol: `W${catalog.nativeCurrency.symbol}`,
      address: wrappedNative,
      decimals: 18,
      usdPrice: catalog.nativeCurrency.usdPrice,
    },
    v2Factory: factory,
    tokens: new Map([stablecoin, ...tokens, ...v3OnlyTokens].map((token) => [token.symbol, token])),
    pools: catalog.v3Pools,
  })

  const nativeNeeded = nativeAmount + market.nativeValue + NATIVE_GAS_ALLOWANCE
  const send = async () => {
    // The deployer holds what the pools take (a fresh anvil account holds 10,000 of the coin).
    if (balance < nativeNeeded) await setBalance(client, { address: deployer, value: nativeNeeded })
    const baseFee = latestBlock.baseFeePerGas ?? parseGwei('1')
    await sendInNonceOrder(client, { account, chainId, firstNonce, baseFee, transactions: planned })
    await installL1FeeOracle(client, network)
  }
  const deployment: DexDeployment = {
    network,
    chainId,
    rpcUrl,
    deployer,
    wrappedNative,
    factory,
    router,
    usdStablecoin: stablecoin.address,
    tokens,
    zoo,
    v3OnlyTokens,
    v3: market.v3,
    swapRouter: market.swapRouter,
    pairs: pools.map(({ token, quote }) =>
      pairOf(factory, token.address, quote === 'native' ? wrappedNative : quote.address),
    ),
  }
  return { deployment, send }
}

type Plan = (tx: PlannedTransaction) => Address

/** The devnet's anvil client: requests batched, receipts polled every RECEIPT_POLL_MS. */
function deployerClient(devnet: Pick<DeployDexParameters, 'network' | 'chainId' | 'rpcUrl'>) {
  return createTestClient({
    mode: 'anvil',
    chain: defineDevnetChain(devnet),
    transport: http(devnet.rpcUrl, { batch: true }),
    pollingInterval: RECEIPT_POLL_MS,
  })
}
type TokenBytecodes = Awaited<ReturnType<typeof tokenBytecodes>>

/** Each token contract's bytecode: the catalog's, the permit token's and the zoo's kinds. */
async function tokenBytecodes() {
  const [tokenArtifact, zooArtifacts, permitArtifact] = await Promise.all([
    loadCatalogTokenArtifact(),
    loadZooTokenArtifacts(),
    loadPermitTokenArtifact(),
  ])
  return {
    standard: tokenArtifact.bytecode,
    permit: permitArtifact.bytecode,
    tetherStyle: zooArtifacts.tetherStyle.bytecode,
    feeOnTransfer: zooArtifacts.feeOnTransfer.bytecode,
  }
}

/** WETH9, the V2 factory and Router02. */
function planV2Core(plan: Plan, deployer: Address) {
  const uniswap = loadUniswapV2Artifacts()
  const wrappedNative = plan({
    label: 'deploy WETH9',
    data: encodeDeployData({ abi: uniswap.weth.abi, bytecode: uniswap.weth.bytecode }),
  })
  const factory = plan({
    label: 'deploy UniswapV2Factory',
    data: encodeDeployData({
      abi: uniswapV2FactoryAbi,
      bytecode: uniswap.factory.bytecode,
      args: [deployer],
    }),
  })
  const router = plan({
    label: 'deploy UniswapV2Router02',
    data: encodeDeployData({
      abi: uniswapV2Router02Abi,
      bytecode: uniswap.router.bytecode,
      args: [factory, wrappedNative],
    }),
  })
  return { wrappedNative, factory, router }
}

/** The catalog's tokens, each its own contract's kind, and V2's router approved for the pooled. */
function planCatalogTokens(
  plan: Plan,
  {
    network,
    deployer,
    router,
    bytecodeOf,
  }: { network: NetworkName; deployer: Address; router: Address; bytecodeOf: TokenBytecodes },
) {
  const catalog = SAMPLE_CATALOG[network]
  const deployToken = <Token extends SampleToken | SampleZooToken>(
    token: Token,
  ): Token & { address: Address } => {
    const address = plan({
      label: `deploy ${token.symbol}`,
      data: encodeDeployData({
        // Every zoo contract takes CatalogToken's constructor.
        abi: catalogTokenAbi,
        bytecode: bytecodeOf['kind' in token ? token.kind : token.permit ? 'permit' : 'standard'],
        args: [
          token.name,
          token.symbol,
          token.decimals,
          parseUnits(token.circulatingSupply, token.decimals),
          deployer,
        ],
      }),
    })
    return { ...token, address }
  }
  const stablecoin = deployToken(catalog.usdStablecoin)
  const tokens = catalog.tokens.map(deployToken)
  const zoo = catalog.zoo.map(deployToken)
  const v3OnlyTokens = catalog.v3OnlyTokens.map(deployToken)
  for (const token of [stablecoin, ...tokens, ...zoo]) {
    plan({
      label: `approve ${token.symbol}`,
      to: token.address,
      data: encodeFunctionData({
        abi: catalogTokenAbi,
        functionName: 'approve',
        args: [router, maxUint256],
      }),
    })
  }
  return { stablecoin, tokens, zoo, v3OnlyTokens }
}

/** The V2 pools: each token with USDC (and the coin where marked), the zoo with its one base. */
function v2Pools(
  stablecoin: DeployedToken,
  tokens: readonly DeployedToken[],
  zoo: readonly DeployedZooToken[],
): PoolPlan[] {
  const pools: PoolPlan[] = tokens.flatMap((token) => [
    { token, quote: stablecoin },
    ...(token.pairedWithNative ? [{ token, quote: 'native' as const }] : []),
  ])
  if (stablecoin.pairedWithNative) pools.push({ token: stablecoin, quote: 'native' })
  for (const token of zoo) {
    pools.push({ token, quote: token.pooledWith === 'native' ? 'native' : stablecoin })
  }
  return pools
}
