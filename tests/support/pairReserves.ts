import { type Address, isAddressEqual, parseAbi, zeroAddress } from 'viem'
import type { NetworkName } from '../../lib/networkNames'
import { deployment, devnet } from './devnetAccounts'

// An independent check of the service's quotes: reserves read straight from the pair contracts
// and Uniswap V2's constant-product formula with its 0.3% fee, hop by hop.

const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)'])
const pairAbi = parseAbi([
  'function token0() view returns (address)',
  'function getReserves() view returns (uint112, uint112, uint32)',
])

/** amountOut = in·997·rOut / (rIn·1000 + in·997), as UniswapV2Library.getAmountOut. */
export function constantProductOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint) {
  const inWithFee = amountIn * 997n
  return (inWithFee * reserveOut) / (reserveIn * 1000n + inWithFee)
}

/** The reserves of the pair of `tokenIn` and `tokenOut`, ordered (in, out); undefined if none. */
export async function reservesOf(
  network: NetworkName,
  tokenIn: Address,
  tokenOut: Address,
  blockNumber?: bigint,
): Promise<[bigint, bigint] | undefined> {
  const client = devnet(network)
  const pair = await client.readContract({
    address: deployment(network).factory,
    abi: factoryAbi,
    functionName: 'getPair',
    args: [tokenIn, tokenOut],
    blockNumber,
  })
  if (isAddressEqual(pair, zeroAddress)) return undefined
  const [token0, [reserve0, reserve1]] = await Promise.all([
    client.readContract({ address: pair, abi: pairAbi, functionName: 'token0', blockNumber }),
    client.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves', blockNumber }),
  ])
  if (reserve0 === 0n || reserve1 === 0n) return undefined
  return isAddressEqual(token0, tokenIn) ? [reserve0, reserve1] : [reserve1, reserve0]
}

/** A token's fee on transfer in basis points (0 for most). */
export type TransferFeeBps = (token: Address) => bigint

/**
 * The output of `amountIn` along `path` at `blockNumber`; undefined when a hop has no pair. With
 * `feeBps`, as the router's fee-on-transfer functions swap: each transfer (into each pair, and
 * out of the last) loses its token's fee, and each pair prices what arrived.
 */
export async function amountOutAlong(
  network: NetworkName,
  amountIn: bigint,
  path: readonly Address[],
  blockNumber?: bigint,
  feeBps: TransferFeeBps = () => 0n,
): Promise<bigint | undefined> {
  const afterFee = (amount: bigint, token: Address) => amount - (amount * feeBps(token)) / 10_000n
  let amount = amountIn
  for (let hop = 0; hop + 1 < path.length; hop += 1) {
    amount = afterFee(amount, path[hop] as Address)
    const reserves = await reservesOf(
      network,
      path[hop] as Address,
      path[hop + 1] as Address,
      blockNumber,
    )
    if (!reserves) return undefined
    amount = constantProductOut(amount, reserves[0], reserves[1])
  }
  return afterFee(amount, path[path.length - 1] as Address)
}

/**
 * Every path from `tokenIn` to `tokenOut` of at most 3 hops through the network's base tokens
 * (wrapped coin and stablecoin), found by walking the token graph here, not by the service's code.
 */
export function pathsThroughBases(
  network: NetworkName,
  tokenIn: Address,
  tokenOut: Address,
): Address[][] {
  const { wrappedNative, usdStablecoin } = deployment(network)
  const bases = [wrappedNative, usdStablecoin]
  const paths: Address[][] = []
  const walk = (path: Address[]) => {
    const last = path[path.length - 1] as Address
    if (isAddressEqual(last, tokenOut)) {
      paths.push(path)
      return
    }
    if (path.length === 4) return
    for (const next of [...bases, tokenOut]) {
      if (path.some((token) => isAddressEqual(token, next))) continue
      walk([...path, next])
    }
  }
  walk([tokenIn])
  return paths
}

/**
 * The best output over every path of at most 3 hops through the base tokens, at a block (with
 * `feeBps`, what arrives after each token's fee on transfer, as in amountOutAlong).
 */
export async function bestOut(
  network: NetworkName,
  amountIn: bigint,
  tokenIn: Address,
  tokenOut: Address,
  blockNumber?: bigint,
  feeBps?: TransferFeeBps,
): Promise<{ amountOut: bigint; path: Address[] } | undefined> {
  let best: { amountOut: bigint; path: Address[] } | undefined
  for (const path of pathsThroughBases(network, tokenIn, tokenOut)) {
    const amountOut = await amountOutAlong(network, amountIn, path, blockNumber, feeBps)
    if (amountOut !== undefined && amountOut > 0n && (!best || amountOut > best.amountOut)) {
      best = { amountOut, path }
    }
  }
  return best
}
