import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getCreate2Address,
  type Hex,
  keccak256,
  maxUint256,
  numberToHex,
  parseUnits,
  size,
  zeroAddress,
} from 'viem'
import { catalogTokenAbi } from './catalogTokenArtifact'
import { NETWORKS, type NetworkName } from '../networkNames'
import type { SampleV3Pool, SampleV3Position } from './sampleCatalog'
import {
  loadPancakeV3Artifacts,
  loadUniswapV3Artifacts,
  loadV3LiquiditySeederArtifact,
  PANCAKE_V3_POOL_INIT_CODE_HASH,
  PANCAKE_V3_TICK_SPACINGS,
  pancakeV3PoolDeployerAbi,
  UNISWAP_V3_POOL_INIT_CODE_HASH,
  UNISWAP_V3_TICK_SPACINGS,
  v3LiquiditySeederAbi,
  weth9DepositAbi,
} from './v3Artifacts'

/** A transaction of the deployment plan, sent in order without waiting for each receipt. */
export type PlannedTransaction = { label: string; to?: Address; data: Hex; value?: bigint }

/** A V3 pool; its address is CREATE2 from the pool deployer (the factory on Uniswap). */
export type DeployedV3Pool = {
  address: Address
  token0: Address
  token1: Address
  /** In hundredths of a bip (500 = 0.05 %). */
  fee: number
  tickSpacing: number
}

export type V3Deployment = {
  /** The network table's `devnet.v3` (lib/networks.ts): Uniswap V3 or PancakeSwap V3. */
  protocol: 'uniswap' | 'pancakeswap'
  factory: Address
  poolDeployer: Address
  poolInitCodeHash: Hex
  feeTiers: number[]
  /** QuoterV2 (an on-chain reference for tests and tools). */
  quoter: Address
  /** NonfungiblePositionManager on Uniswap; none on the PancakeSwap devnet (the seeder mints). */
  positionManager?: Address
  /** V3LiquiditySeeder, which created and filled the pools (the deployer approved it). */
  liquiditySeeder: Address
  pools: DeployedV3Pool[]
}

/** A token a V3 pool can hold: its address, decimals and catalog price. */
export type V3PoolToken = { symbol: string; address: Address; decimals: number; usdPrice: string }

export type PlanV3MarketParameters = {
  network: NetworkName
  /** Queues a transaction; returns the address a deployment in it would create. */
  plan: (tx: PlannedTransaction) => Address
  wrappedNative: V3PoolToken
  v2Factory: Address
  /** Every token the layout names, by symbol. */
  tokens: ReadonlyMap<string, V3PoolToken>
  pools: readonly SampleV3Pool[]
}

export type PlannedV3Market = {
  v3: V3Deployment
  swapRouter: Address
  /** Native coin the plan wraps to fund the pools' wrapped-native sides. */
  nativeValue: bigint
}

const MAX_TICK = 887272
const PRICE_DECIMALS = 18
// Liquidity is sized with floats; wrapping this much more native coin covers their rounding.
const WRAP_HEADROOM_BPS = 200n

/**
 * Queues the concentrated-liquidity DEX of a devnet, the flavour its network table entry names
 * (`devnet.v3`): Uniswap V3 (factory, NonfungiblePositionManager, QuoterV2 and SwapRouter02
 * from the npm builds) or PancakeSwap V3 (factory and pool from the npm builds, the pool deployer, QuoterV2 and a
 * SwapRouter02-compatible router compiled from lib/local), then one seeding transaction per pool
 * of the layout. Pool addresses are CREATE2 from the pool deployer, as routers derive them.
 */
export async function planV3Market({
  network,
  plan,
  wrappedNative,
  v2Factory,
  tokens,
  pools,
}: PlanV3MarketParameters): Promise<PlannedV3Market> {
  const weth = wrappedNative.address
  const [seederArtifact, core] = await Promise.all([
    loadV3LiquiditySeederArtifact(),
    NETWORKS[network].devnet.v3 === 'uniswap-v3'
      ? Promise.resolve(planUniswap(plan, { weth, v2Factory }))
      : planPancake(plan, { weth, v2Factory }),
  ])
  const seeder = plan({
    label: 'deploy V3LiquiditySeeder',
    data: encodeDeployData({ abi: seederArtifact.abi, bytecode: seederArtifact.bytecode }),
  })

  const tokenOf = (symbol: string): V3PoolToken => {
    const token = symbol === 'native' ? wrappedNative : tokens.get(symbol)
    if (!token) throw new Error(`V3 layout names an unknown token ${symbol}`)
    return token
  }
  const seeds = pools.map((pool) => {
    const [a, b] = pool.tokens.map(tokenOf) as [V3PoolToken, V3PoolToken]
    const [token0, token1] = BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a]
    const tickSpacing = core.tickSpacings[pool.fee]
    if (tickSpacing === undefined) throw new Error(`${network} has no ${pool.fee} fee tier`)
    return {
      pool,
      token0,
      token1,
      tickSpacing,
      ...seedPositions(token0, token1, tickSpacing, pool.positions),
    }
  })

  const wethNeeded = seeds.reduce(
    (sum, seed) =>
      sum +
      (seed.token0.address === weth ? seed.amount0 : 0n) +
      (seed.token1.address === weth ? seed.amount1 : 0n),
    0n,
  )
  const nativeValue = wethNeeded + (wethNeeded * WRAP_HEADROOM_BPS) / 10_000n
  plan({
    label: 'wrap native coin for V3 pools',
    to: weth,
    value: nativeValue,
    data: encodeFunctionData({ abi: weth9DepositAbi, functionName: 'deposit' }),
  })
  const pooled = new Set(seeds.flatMap((seed) => [seed.token0, seed.token1]))
  for (const token of pooled) {
    plan({
      label: `approve ${token.symbol} to the V3 seeder`,
      to: token.address,
      data: encodeFunctionData({
        abi: catalogTokenAbi,
        functionName: 'approve',
        args: [seeder, maxUint256],
      }),
    })
  }
  const deployedPools: DeployedV3Pool[] = seeds.map((seed) => {
    plan({
      label: `seed V3 ${seed.token0.symbol}/${seed.token1.symbol} ${seed.pool.fee}`,
      to: seeder,
      data: encodeFunctionData({
        abi: v3LiquiditySeederAbi,
        functionName: 'seed',
        args: [
          core.factory,
          seed.token0.address,
          seed.token1.address,
          seed.pool.fee,
          seed.sqrtPriceX96,
          seed.positions,
        ],
      }),
    })
    return {
      address: v3PoolAddress({
        poolDeployer: core.poolDeployer,
        poolInitCodeHash: core.poolInitCodeHash,
        tokenA: seed.token0.address,
        tokenB: seed.token1.address,
        fee: seed.pool.fee,
      }),
      token0: seed.token0.address,
      token1: seed.token1.address,
      fee: seed.pool.fee,
      tickSpacing: seed.tickSpacing,
    }
  })

  return {
    v3: {
      protocol: core.protocol,
      factory: core.factory,
      poolDeployer: core.poolDeployer,
      poolInitCodeHash: core.poolInitCodeHash,
      feeTiers: Object.keys(core.tickSpacings).map(Number),
      quoter: core.quoter,
      positionManager: core.positionManager,
      liquiditySeeder: seeder,
      pools: deployedPools,
    },
    swapRouter: core.swapRouter,
    nativeValue,
  }
}

type PlannedCore = {
  protocol: V3Deployment['protocol']
  factory: Address
  poolDeployer: Address
  poolInitCodeHash: Hex
  tickSpacings: Readonly<Record<number, number>>
  quoter: Address
  positionManager?: Address
  swapRouter: Address
}

function planUniswap(
  plan: PlanV3MarketParameters['plan'],
  { weth, v2Factory }: { weth: Address; v2Factory: Address },
): PlannedCore {
  const uniswap = loadUniswapV3Artifacts()
  const factory = plan({ label: 'deploy UniswapV3Factory', data: uniswap.factory.bytecode })
  const positionManager = plan({
    label: 'deploy NonfungiblePositionManager',
    data: encodeDeployData({
      abi: uniswap.positionManager.abi,
      bytecode: uniswap.positionManager.bytecode,
      // No token descriptor: tokenURI is not needed on a devnet.
      args: [factory, weth, zeroAddress],
    }),
  })
  const quoter = plan({
    label: 'deploy QuoterV2',
    data: encodeDeployData({
      abi: uniswap.quoter.abi,
      bytecode: uniswap.quoter.bytecode,
      args: [factory, weth],
    }),
  })
  const swapRouter = plan({
    label: 'deploy SwapRouter02',
    data: encodeDeployData({
      abi: uniswap.swapRouter.abi,
      bytecode: uniswap.swapRouter.bytecode,
      args: [v2Factory, factory, positionManager, weth],
    }),
  })
  return {
    protocol: 'uniswap',
    factory,
    poolDeployer: factory,
    poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
    tickSpacings: UNISWAP_V3_TICK_SPACINGS,
    quoter,
    positionManager,
    swapRouter,
  }
}

async function planPancake(
  plan: PlanV3MarketParameters['plan'],
  { weth, v2Factory }: { weth: Address; v2Factory: Address },
): Promise<PlannedCore> {
  const pancake = await loadPancakeV3Artifacts()
  const poolCode = plan({
    label: 'deploy PancakeV3Pool creation code holder',
    data: dataContractCreationCode(pancake.pool.bytecode),
  })
  const poolDeployer = plan({
    label: 'deploy PancakeV3PoolDeployer',
    data: encodeDeployData({
      abi: pancakeV3PoolDeployerAbi,
      bytecode: pancake.poolDeployer.bytecode,
      args: [poolCode],
    }),
  })
  const factory = plan({
    label: 'deploy PancakeV3Factory',
    data: encodeDeployData({
      abi: pancake.factory.abi,
      bytecode: pancake.factory.bytecode,
      args: [poolDeployer],
    }),
  })
  plan({
    label: 'point PancakeV3PoolDeployer at its factory',
    to: poolDeployer,
    data: encodeFunctionData({
      abi: pancakeV3PoolDeployerAbi,
      functionName: 'setFactoryAddress',
      args: [factory],
    }),
  })
  const quoter = plan({
    label: 'deploy PancakeQuoterV2',
    data: encodeDeployData({
      abi: pancake.quoter.abi,
      bytecode: pancake.quoter.bytecode,
      args: [poolDeployer, weth],
    }),
  })
  const swapRouter = plan({
    label: 'deploy PancakeSwapRouter02',
    data: encodeDeployData({
      abi: pancake.swapRouter.abi,
      bytecode: pancake.swapRouter.bytecode,
      // No position manager: the router leaves out approveAndCall, its only user.
      args: [v2Factory, poolDeployer, zeroAddress, weth],
    }),
  })
  return {
    protocol: 'pancakeswap',
    factory,
    poolDeployer,
    poolInitCodeHash: PANCAKE_V3_POOL_INIT_CODE_HASH,
    tickSpacings: PANCAKE_V3_TICK_SPACINGS,
    quoter,
    swapRouter,
  }
}

/**
 * Creation code of a contract whose runtime code is 0x00 followed by `payload` (the leading STOP
 * keeps it from running): PUSH2 len, DUP1, PUSH1 12, PUSH1 0, CODECOPY, PUSH1 0, RETURN.
 */
function dataContractCreationCode(payload: Hex): Hex {
  const runtime = concat(['0x00', payload])
  const length = size(runtime)
  if (length > 0xffff) throw new Error('payload too large for PUSH2')
  return concat(['0x61', numberToHex(length, { size: 2 }), '0x80600c6000396000f3', runtime])
}

export type V3PoolAddressParameters = {
  poolDeployer: Address
  poolInitCodeHash: Hex
  tokenA: Address
  tokenB: Address
  fee: number
}

/** CREATE2(deployer, keccak256(abi.encode(token0, token1, fee)), init code hash), as PoolAddress. */
export function v3PoolAddress({
  poolDeployer,
  poolInitCodeHash,
  tokenA,
  tokenB,
  fee,
}: V3PoolAddressParameters): Address {
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return getCreate2Address({
    from: poolDeployer,
    salt: keccak256(
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }],
        [token0, token1, fee],
      ),
    ),
    bytecodeHash: poolInitCodeHash,
  })
}

type SeedPositions = {
  sqrtPriceX96: bigint
  positions: Array<{ tickLower: number; tickUpper: number; liquidity: bigint }>
  /** Estimated token amounts the positions take (floats rounded up). */
  amount0: bigint
  amount1: bigint
}

/** Prices the pool at the catalog prices and sizes each position to its USD value. */
function seedPositions(
  token0: V3PoolToken,
  token1: V3PoolToken,
  tickSpacing: number,
  positions: readonly SampleV3Position[],
): SeedPositions {
  const usd0 = parseUnits(token0.usdPrice, PRICE_DECIMALS)
  const usd1 = parseUnits(token1.usdPrice, PRICE_DECIMALS)
  // token1 base units per token0 base unit.
  const priceNumerator = usd0 * 10n ** BigInt(token1.decimals)
  const priceDenominator = usd1 * 10n ** BigInt(token0.decimals)
  const sqrtPriceX96 = sqrtBigInt((priceNumerator << 192n) / priceDenominator)
  const price = Number(priceNumerator) / Number(priceDenominator)
  const sqrtPrice = Math.sqrt(price)
  const tick = Math.floor(Math.log(price) / Math.log(1.0001))
  const widest = MAX_TICK - (MAX_TICK % tickSpacing)

  let amount0 = 0
  let amount1 = 0
  const planned = positions.map(({ rangePercent, usd }) => {
    const [tickLower, tickUpper] =
      rangePercent === 'full'
        ? [-widest, widest]
        : rangeTicks(tick, rangePercent, tickSpacing, widest)
    const sqrtLower = Math.pow(1.0001, tickLower / 2)
    const sqrtUpper = Math.pow(1.0001, tickUpper / 2)
    // Value in token1 base units of liquidity L around the price: L(2√P − P/√Pb − √Pa).
    const value1 = (usd / Number(token1.usdPrice)) * 10 ** token1.decimals
    const liquidity = value1 / (2 * sqrtPrice - price / sqrtUpper - sqrtLower)
    amount0 += liquidity * (1 / sqrtPrice - 1 / sqrtUpper)
    amount1 += liquidity * (sqrtPrice - sqrtLower)
    return { tickLower, tickUpper, liquidity: BigInt(Math.floor(liquidity)) }
  })
  return {
    sqrtPriceX96,
    positions: planned,
    amount0: BigInt(Math.ceil(amount0)),
    amount1: BigInt(Math.ceil(amount1)),
  }
}

/** Ticks on the spacing at least ±rangePercent (in price) from `tick`. */
function rangeTicks(
  tick: number,
  rangePercent: number,
  tickSpacing: number,
  widest: number,
): [number, number] {
  const span = Math.log(1 + rangePercent / 100) / Math.log(1.0001)
  const lower = Math.floor((tick - span) / tickSpacing) * tickSpacing
  const upper = Math.ceil((tick + span) / tickSpacing) * tickSpacing
  return [Math.max(lower, -widest), Math.min(upper, widest)]
}

function sqrtBigInt(value: bigint): bigint {
  if (value < 2n) return value
  // Newton's method from above settles on floor(√value).
  let root = value
  let next = (value + 1n) >> 1n
  while (next < root) {
    root = next
    next = (root + value / root) >> 1n
  }
  return root
}
