import {
  type Address,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getCreate2Address,
  type Hex,
  keccak256,
  maxUint256,
} from 'viem'
import { catalogTokenAbi } from './catalogTokenArtifact'
import { NETWORKS, type NetworkName } from '../networkNames'
import type { SampleV3Pool } from './sampleCatalogTypes'
import { loadV3LiquiditySeederArtifact, v3LiquiditySeederAbi, weth9DepositAbi } from './v3Artifacts'
import { type PlannedCore, type PlanTransaction, planPancake, planUniswap } from './v3Cores'
import { type SeedPositions, seedPositions } from './v3Positions'

export type { PlannedTransaction } from './v3Cores'

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
  protocol: PlannedCore['protocol']
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
  plan: PlanTransaction
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

// Liquidity is sized with floats; wrapping this much more native coin covers their rounding.
const WRAP_HEADROOM_BPS = 200n

/** A pool of the layout, its tokens ordered as the pool orders them, with its seed. */
type PoolSeed = SeedPositions & {
  pool: SampleV3Pool
  token0: V3PoolToken
  token1: V3PoolToken
  tickSpacing: number
}

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
  const seeds = pools.map((pool): PoolSeed => {
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
  const nativeValue = planFunding(plan, { seeds, weth, seeder })
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
      pools: planSeeds(plan, { seeds, seeder, core }),
    },
    swapRouter: core.swapRouter,
    nativeValue,
  }
}

/**
 * Wraps the native coin the pools' wrapped-native sides take (with headroom) and approves each
 * pooled token to the seeder; answers the native coin wrapped.
 */
function planFunding(
  plan: PlanTransaction,
  { seeds, weth, seeder }: { seeds: PoolSeed[]; weth: Address; seeder: Address },
): bigint {
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
  return nativeValue
}

/** One seeding transaction per pool: the seeder creates it, sets its price and mints its positions. */
function planSeeds(
  plan: PlanTransaction,
  { seeds, seeder, core }: { seeds: PoolSeed[]; seeder: Address; core: PlannedCore },
): DeployedV3Pool[] {
  return seeds.map((seed) => {
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
