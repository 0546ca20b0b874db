import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { type Abi, type Hex, parseAbi } from 'viem'
import { compileSolidity } from './catalogTokenArtifact'
import type { ContractArtifact } from './uniswapV2Artifacts'

/** keccak256 of UniswapV3Pool's creation code, as v3-periphery's PoolAddress hard-codes it. */
export const UNISWAP_V3_POOL_INIT_CODE_HASH =
  '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54' as const

/** keccak256 of PancakeV3Pool's creation code, as pancake v3-periphery's PoolAddress has it. */
export const PANCAKE_V3_POOL_INIT_CODE_HASH =
  '0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2' as const

/** Fee tier → tick spacing, as each factory enables them at construction. */
export const UNISWAP_V3_TICK_SPACINGS: Readonly<Record<number, number>> = {
  500: 10,
  3000: 60,
  10000: 200,
}
export const PANCAKE_V3_TICK_SPACINGS: Readonly<Record<number, number>> = {
  100: 1,
  500: 10,
  2500: 50,
  10000: 200,
}

export const v3FactoryAbi = parseAbi([
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)',
  'function feeAmountTickSpacing(uint24 fee) view returns (int24)',
  'function createPool(address tokenA, address tokenB, uint24 fee) returns (address pool)',
])

/**
 * The pool reads both DEXes share. `feeProtocol` is uint8 on Uniswap and uint32 on PancakeSwap;
 * read as uint32 it decodes either.
 */
export const v3PoolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint32 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
  'function tickBitmap(int16 wordPosition) view returns (uint256)',
  'function tickSpacing() view returns (int24)',
  'function fee() view returns (uint24)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function factory() view returns (address)',
])

/** QuoterV2's exact-input quotes (Uniswap's, PancakeSwap's and the devnet's PancakeQuoterV2). */
export const quoterV2Abi = parseAbi([
  'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
  'function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)',
])

/**
 * The execution surface shared by SwapRouter02 (Ethereum), PancakeSwap's SmartRouter (BNB Chain)
 * and the altchain devnet's PancakeSwapRouter02: V3 and V2 hops, exact input or output, in one multicall.
 * Recipient 0x…01 means the caller, 0x…02 the router; amountIn 0 spends the router's balance.
 */
export const swapRouter02Abi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'struct ExactInputParams { bytes path; address recipient; uint256 amountIn; uint256 amountOutMinimum; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
  'function exactInput(ExactInputParams params) payable returns (uint256 amountOut)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to) payable returns (uint256 amountOut)',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'function wrapETH(uint256 value) payable',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
  'function unwrapWETH9(uint256 amountMinimum) payable',
  'function sweepToken(address token, uint256 amountMinimum, address recipient) payable',
  'function refundETH() payable',
  'function factory() view returns (address)',
  'function factoryV2() view returns (address)',
  'function WETH9() view returns (address)',
])

export const v3LiquiditySeederAbi = parseAbi([
  'struct Position { int24 tickLower; int24 tickUpper; uint128 liquidity; }',
  'function seed(address factory, address tokenA, address tokenB, uint24 fee, uint160 sqrtPriceX96, Position[] positions) returns (address pool)',
])

export const pancakeV3PoolDeployerAbi = parseAbi([
  'constructor(address poolCreationCode)',
  'function setFactoryAddress(address factory)',
  'function factoryAddress() view returns (address)',
  'function parameters() view returns (address factory, address token0, address token1, uint24 fee, int24 tickSpacing)',
])

export const weth9DepositAbi = parseAbi(['function deposit() payable'])

export type UniswapV3Artifacts = {
  factory: ContractArtifact
  pool: ContractArtifact
  positionManager: ContractArtifact
  quoter: ContractArtifact
  swapRouter: ContractArtifact
}

export type PancakeV3Artifacts = {
  factory: ContractArtifact
  pool: ContractArtifact
  /** Compiled here (lib/local/*.sol): the npm packages do not ship them. */
  poolDeployer: ContractArtifact
  quoter: ContractArtifact
  swapRouter: ContractArtifact
}

const require = createRequire(import.meta.url)

let uniswap: UniswapV3Artifacts | undefined

/** The canonical npm builds (v3-core 1.0.1, v3-periphery 1.4.4, swap-router-contracts 1.3.1). */
export function loadUniswapV3Artifacts(): UniswapV3Artifacts {
  uniswap ??= {
    factory: readArtifact(
      '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
    ),
    pool: readArtifact('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'),
    positionManager: readArtifact(
      '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
    ),
    quoter: readArtifact(
      '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
    ),
    swapRouter: readArtifact(
      '@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
    ),
  }
  return uniswap
}

let pancake: Promise<PancakeV3Artifacts> | undefined

/**
 * PancakeSwap V3: factory and pool from @pancakeswap/v3-core 1.0.2; the pool deployer, quoter
 * and router compiled from lib/local (cached like the catalog token, see `compileSolidity`).
 */
export function loadPancakeV3Artifacts(): Promise<PancakeV3Artifacts> {
  pancake ??= (async () => {
    // Sequential: solc's module is single-threaded.
    const poolDeployer = await compileLocal('PancakeV3PoolDeployer', 'solc')
    const quoter = await compileLocal('PancakeQuoterV2', 'solc-0.7.6')
    const swapRouter = await compileLocal('PancakeSwapRouter02', 'solc-0.7.6')
    return {
      factory: readArtifact(
        '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Factory.sol/PancakeV3Factory.json',
      ),
      pool: readArtifact(
        '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json',
      ),
      poolDeployer,
      quoter,
      swapRouter,
    }
  })().catch((error: unknown) => {
    pancake = undefined
    throw error
  })
  return pancake
}

let seeder: Promise<ContractArtifact> | undefined

/** The devnets' liquidity seeder (V3LiquiditySeeder.sol), for either DEX. */
export function loadV3LiquiditySeederArtifact(): Promise<ContractArtifact> {
  seeder ??= compileLocal('V3LiquiditySeeder', 'solc').catch((error: unknown) => {
    seeder = undefined
    throw error
  })
  return seeder
}

async function compileLocal(
  contractName: string,
  compiler: 'solc' | 'solc-0.7.6',
): Promise<ContractArtifact> {
  const sourceName = `${contractName}.sol`
  const source = await readFile(fileURLToPath(new URL(`./${sourceName}`, import.meta.url)), 'utf8')
  return compileSolidity({ sourceName, source, contractName, compiler })
}

function readArtifact(specifier: string): ContractArtifact {
  const json: unknown = require(specifier)
  if (
    typeof json !== 'object' ||
    json === null ||
    !('abi' in json) ||
    !Array.isArray(json.abi) ||
    !('bytecode' in json) ||
    typeof json.bytecode !== 'string' ||
    !/^0x[0-9a-fA-F]+$/.test(json.bytecode)
  ) {
    throw new Error(`${specifier} has no abi and bytecode`)
  }
  // The JSON ABI is untyped; calls go through the `as const` ABIs above.
  return { abi: json.abi as Abi, bytecode: json.bytecode as Hex }
}
