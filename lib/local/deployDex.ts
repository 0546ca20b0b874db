import {
  type Address,
  type Chain,
  type Client,
  createTestClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  getCreate2Address,
  type Hash,
  type Hex,
  http,
  keccak256,
  maxUint256,
  parseEther,
  parseGwei,
  parseUnits,
} from 'viem'
import { type LocalAccount, privateKeyToAccount } from 'viem/accounts'
import {
  getBalance,
  getBlock,
  getTransactionCount,
  sendRawTransaction,
  setBalance,
  waitForTransactionReceipt,
} from 'viem/actions'
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
import {
  loadUniswapV2Artifacts,
  UNISWAP_V2_PAIR_INIT_CODE_HASH,
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

/** Pair addresses are derived with CREATE2, as Router02's `pairFor` does. */
export type DeployedPair = { address: Address; token0: Address; token1: Address }

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

/** USD on each side of every seeded pool, so a pool holds $10M and demo swaps barely move it. */
export const POOL_SIDE_USD = 5_000_000n

const PRICE_DECIMALS = 18
// Fixed limits replace eth_estimateGas, which cannot run against contracts not yet mined.
// The largest real use is Router02's deployment (~4.8M gas); all stay under the EIP-7825 cap.
const GAS_LIMIT = 8_000_000n
const PRIORITY_FEE = parseGwei('1')
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
  const client = createTestClient({
    mode: 'anvil',
    chain: defineDevnetChain({ network, chainId, rpcUrl }),
    transport: http(rpcUrl, { batch: true }),
    pollingInterval: RECEIPT_POLL_MS,
  })

  const [firstNonce, latestBlock, balance, tokenArtifact, zooArtifacts, permitArtifact] =
    await Promise.all([
      getTransactionCount(client, { address: deployer, blockTag: 'pending' }),
      getBlock(client, { blockTag: 'latest' }),
      getBalance(client, { address: deployer }),
      loadCatalogTokenArtifact(),
      loadZooTokenArtifacts(),
      loadPermitTokenArtifact(),
    ])
  const bytecodeOf = {
    standard: tokenArtifact.bytecode,
    permit: permitArtifact.bytecode,
    tetherStyle: zooArtifacts.tetherStyle.bytecode,
    feeOnTransfer: zooArtifacts.feeOnTransfer.bytecode,
  }
  const uniswap = loadUniswapV2Artifacts()

  const planned: PlannedTransaction[] = []
  const plan = (tx: PlannedTransaction): Address => {
    planned.push(tx)
    return getContractAddress({ from: deployer, nonce: BigInt(firstNonce + planned.length - 1) })
  }

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

  const pools: PoolPlan[] = tokens.flatMap((token) => [
    { token, quote: stablecoin },
    ...(token.pairedWithNative ? [{ token, quote: 'native' as const }] : []),
  ])
  if (stablecoin.pairedWithNative) pools.push({ token: stablecoin, quote: 'native' })
  for (const token of zoo) {
    pools.push({ token, quote: token.pooledWith === 'native' ? 'native' : stablecoin })
  }
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
    if (balance < nativeNeeded) {
      await setBalance(client, { address: deployer, value: nativeNeeded })
    }
    await sendInNonceOrder(client, {
      account,
      chainId,
      firstNonce,
      baseFee: latestBlock.baseFeePerGas ?? parseGwei('1'),
      transactions: planned,
    })
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

type PoolToken = Pick<SampleToken, 'symbol' | 'decimals' | 'usdPrice' | 'circulatingSupply'> & {
  address: Address
}

type PoolPlan = { token: PoolToken; quote: PoolToken | 'native' }

/** One addLiquidity(ETH) call per pool, each side worth POOL_SIDE_USD at catalog prices. */
function planLiquidity(
  pools: PoolPlan[],
  {
    router,
    deployer,
    nativeUsdPrice,
  }: { router: Address; deployer: Address; nativeUsdPrice: string },
): { transactions: PlannedTransaction[]; nativeAmount: bigint } {
  const pooled = new Map<PoolToken, bigint>()
  const take = (token: PoolToken) => {
    const amount = amountForUsd(token, POOL_SIDE_USD)
    pooled.set(token, (pooled.get(token) ?? 0n) + amount)
    return amount
  }
  let nativeAmount = 0n
  const transactions = pools.map(({ token, quote }): PlannedTransaction => {
    const tokenAmount = take(token)
    if (quote === 'native') {
      const value = amountForUsd({ decimals: 18, usdPrice: nativeUsdPrice }, POOL_SIDE_USD)
      nativeAmount += value
      return {
        label: `add ${token.symbol}/native liquidity`,
        to: router,
        value,
        data: encodeFunctionData({
          abi: uniswapV2Router02Abi,
          functionName: 'addLiquidityETH',
          // Minimums equal the desired amounts: the pool is new, so nothing may be trimmed.
          args: [token.address, tokenAmount, tokenAmount, value, deployer, maxUint256],
        }),
      }
    }
    const quoteAmount = take(quote)
    return {
      label: `add ${token.symbol}/${quote.symbol} liquidity`,
      to: router,
      data: encodeFunctionData({
        abi: uniswapV2Router02Abi,
        functionName: 'addLiquidity',
        args: [
          token.address,
          quote.address,
          tokenAmount,
          quoteAmount,
          tokenAmount,
          quoteAmount,
          deployer,
          maxUint256,
        ],
      }),
    }
  })
  for (const [token, amount] of pooled) {
    if (amount > parseUnits(token.circulatingSupply, token.decimals)) {
      throw new Error(`${token.symbol} circulating supply cannot fund its pools`)
    }
  }
  return { transactions, nativeAmount }
}

/** Signs with consecutive nonces, sends in order without awaiting receipts, then checks them all. */
async function sendInNonceOrder(
  client: Client,
  {
    account,
    chainId,
    firstNonce,
    baseFee,
    transactions,
  }: {
    account: LocalAccount
    chainId: number
    firstNonce: number
    baseFee: bigint
    transactions: PlannedTransaction[]
  },
): Promise<void> {
  const signed = await Promise.all(
    transactions.map(({ to, data, value }, index) =>
      account.signTransaction({
        chainId,
        type: 'eip1559',
        nonce: firstNonce + index,
        gas: GAS_LIMIT,
        // Twice the base fee leaves room for it to rise while the batch mines.
        maxFeePerGas: baseFee * 2n + PRIORITY_FEE,
        maxPriorityFeePerGas: PRIORITY_FEE,
        to,
        data,
        value,
      }),
    ),
  )
  const hashes: Hash[] = []
  for (const serializedTransaction of signed) {
    hashes.push(await sendRawTransaction(client, { serializedTransaction }))
  }
  const receipts = await Promise.all(
    hashes.map((hash) => waitForTransactionReceipt(client, { hash, checkReplacement: false })),
  )
  receipts.forEach((receipt, index) => {
    if (receipt.status !== 'success') {
      const label = transactions[index]?.label ?? 'transaction'
      throw new Error(`${label} reverted (${receipt.transactionHash})`)
    }
  })
}

/** Smallest units of `asset` worth `usd` at its catalog price (rounded down). */
function amountForUsd(asset: { decimals: number; usdPrice: string }, usd: bigint): bigint {
  const price = parseUnits(asset.usdPrice, PRICE_DECIMALS)
  if (price <= 0n) throw new Error(`price must be positive, got ${asset.usdPrice}`)
  return (usd * 10n ** BigInt(asset.decimals + PRICE_DECIMALS)) / price
}

/** The factory creates pairs with CREATE2, so their addresses are known before they exist. */
function pairOf(factory: Address, tokenA: Address, tokenB: Address): DeployedPair {
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  const address = getCreate2Address({
    from: factory,
    salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
    bytecodeHash: UNISWAP_V2_PAIR_INIT_CODE_HASH,
  })
  return { address, token0, token1 }
}
