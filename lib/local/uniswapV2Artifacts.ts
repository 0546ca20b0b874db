import { createRequire } from 'node:module'
import { type Abi, type Hex, parseAbi } from 'viem'
import {
  uniswapV2FactoryAbi as appFactoryAbi,
  uniswapV2PairAbi,
  uniswapV2RouterAbi,
} from '../chain/abis'

export type ContractArtifact = { abi: Abi; bytecode: Hex }

export type UniswapV2Artifacts = {
  factory: ContractArtifact
  /** Never deployed directly (the factory creates pairs); loaded for its ABI and init-code hash. */
  pair: ContractArtifact
  router: ContractArtifact
  weth: ContractArtifact
}

/** keccak256 of UniswapV2Pair's creation code, hard-coded in Router02's `pairFor`. */
export const UNISWAP_V2_PAIR_INIT_CODE_HASH =
  '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f' as const

// The app's ABIs (lib/chain/abis.ts) plus what only deployment and seeding need.
export const uniswapV2FactoryAbi = [
  ...appFactoryAbi,
  ...parseAbi([
    'constructor(address _feeToSetter)',
    'function feeToSetter() view returns (address)',
  ]),
]

export const uniswapV2Router02Abi = [
  ...uniswapV2RouterAbi,
  ...parseAbi([
    'constructor(address _factory, address _WETH)',
    'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
    'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)',
  ]),
]

export { uniswapV2PairAbi }

const require = createRequire(import.meta.url)
let artifacts: UniswapV2Artifacts | undefined

/** The canonical npm builds (v2-core 1.0.1, v2-periphery 1.1.0-beta.0), read once. */
export function loadUniswapV2Artifacts(): UniswapV2Artifacts {
  artifacts ??= {
    factory: readArtifact('@uniswap/v2-core/build/UniswapV2Factory.json'),
    pair: readArtifact('@uniswap/v2-core/build/UniswapV2Pair.json'),
    router: readArtifact('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
    weth: readArtifact('@uniswap/v2-periphery/build/WETH9.json'),
  }
  return artifacts
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
    !/^(0x)?[0-9a-fA-F]+$/.test(json.bytecode)
  ) {
    throw new Error(`${specifier} has no abi and bytecode`)
  }
  const bytecode = json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`
  // The JSON ABI is untyped; calls go through the `as const` ABIs above.
  return { abi: json.abi as Abi, bytecode: bytecode as Hex }
}
