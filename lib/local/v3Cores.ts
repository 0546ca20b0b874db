import {
  type Address,
  concat,
  encodeDeployData,
  encodeFunctionData,
  type Hex,
  numberToHex,
  size,
  zeroAddress,
} from 'viem'
import {
  loadPancakeV3Artifacts,
  loadUniswapV3Artifacts,
  PANCAKE_V3_POOL_INIT_CODE_HASH,
  PANCAKE_V3_TICK_SPACINGS,
  pancakeV3PoolDeployerAbi,
  UNISWAP_V3_POOL_INIT_CODE_HASH,
  UNISWAP_V3_TICK_SPACINGS,
} from './v3Artifacts'

// The core contracts of a devnet's V3 DEX, one plan per flavour (lib/local/deployV3.ts seeds the
// pools on them): Uniswap V3 from the npm builds, PancakeSwap V3 with its pool deployer.

/** A transaction of the deployment plan, sent in order without waiting for each receipt. */
export type PlannedTransaction = { label: string; to?: Address; data: Hex; value?: bigint }

/** Queues a transaction; returns the address a deployment in it would create. */
export type PlanTransaction = (tx: PlannedTransaction) => Address

export type PlannedCore = {
  /** The network table's `devnet.v3` (lib/networks.ts): Uniswap V3 or PancakeSwap V3. */
  protocol: 'uniswap' | 'pancakeswap'
  factory: Address
  poolDeployer: Address
  poolInitCodeHash: Hex
  tickSpacings: Readonly<Record<number, number>>
  quoter: Address
  positionManager?: Address
  swapRouter: Address
}

export function planUniswap(
  plan: PlanTransaction,
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
export async function planPancake(
  plan: PlanTransaction,
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
