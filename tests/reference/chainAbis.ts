import { parseAbi } from 'viem'

// The reference's own ABIs, the few functions and events it reads or calls, written from the
// Uniswap and PancakeSwap contracts (not the service's lib/chain/abis.ts).

export const v2FactoryEvents = parseAbi([
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256 pairCount)',
])

export const v3FactoryEvents = parseAbi([
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
])

export const v2PairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)',
  'function sync()',
])

// slot0 and ticks are read by their leading fields only: PancakeSwap V3's slot0 widens
// feeProtocol to uint32 and its Tick.Info adds fields, the leading ones are the same.
export const v3PoolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick)',
  'function liquidity() view returns (uint128)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function tickBitmap(int16 wordPosition) view returns (uint256)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet)',
])

export const quoterV2Abi = parseAbi([
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
])

export const exactInputSingleAbi = parseAbi([
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
])

// transfer and approve declared without a return value: the USDT-style zoo token returns none.
export const tokenAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function transfer(address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function deposit() payable',
])
