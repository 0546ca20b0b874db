import type { Address } from 'viem'
import { readContract } from 'viem/actions'
import { uniswapV2PairAbi } from './abis'
import type { ChainClient } from './clients'

// The price accumulators of the pools, as the contracts keep them (DECISIONS §8.3).

const v2AccumulatorAbi = [
  ...uniswapV2PairAbi,
  {
    name: 'price0CumulativeLast',
    type: 'function',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ type: 'uint256' }],
  },
  {
    name: 'price1CumulativeLast',
    type: 'function',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ type: 'uint256' }],
  },
] as const

// `feeProtocol` is uint8 on Uniswap and uint32 on PancakeSwap; read as uint32 it decodes either.
const v3AccumulatorAbi = [
  {
    name: 'observe',
    type: 'function',
    stateMutability: 'view',
    inputs: [{ type: 'uint32[]', name: 'secondsAgos' }],
    outputs: [
      { type: 'int56[]', name: 'tickCumulatives' },
      { type: 'uint160[]', name: 'secondsPerLiquidityCumulativeX128s' },
    ],
  },
  {
    name: 'slot0',
    type: 'function',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { type: 'uint160', name: 'sqrtPriceX96' },
      { type: 'int24', name: 'tick' },
      { type: 'uint16', name: 'observationIndex' },
      { type: 'uint16', name: 'observationCardinality' },
      { type: 'uint16', name: 'observationCardinalityNext' },
      { type: 'uint32', name: 'feeProtocol' },
      { type: 'bool', name: 'unlocked' },
    ],
  },
] as const

export interface AccumulatorPool {
  protocol: 'v2' | 'v3'
  address: Address
}

/** What a pool's accumulators say at one block. */
export type PoolAccumulators =
  | {
      protocol: 'v2'
      /** UQ112x112 price of token0 in token1 (and of token1 in token0) times seconds, mod 2^256. */
      price0CumulativeLast: bigint
      price1CumulativeLast: bigint
      reserve0: bigint
      reserve1: bigint
      /** The pair's last update, mod 2^32 as the pair keeps it. */
      blockTimestampLast: number
    }
  | {
      protocol: 'v3'
      /** The tick times seconds, summed up to the block's timestamp (observe([0]) at the block). */
      tickCumulative: bigint
      /** The block's timestamp, the moment `tickCumulative` is of. */
      timestamp: bigint
      /** The current tick and price, which hold from the block on until the next swap. */
      tick: number
      sqrtPriceX96: bigint
    }

export interface ReadAccumulatorsParameters {
  pools: readonly AccumulatorPool[]
  block: { number: bigint; timestamp: bigint }
}

/**
 * Each pool's accumulators at `block`: a V2 pair's cumulative prices and reserves (3 calls), a
 * V3 pool's `observe([0])` and `slot0` (2 calls); made together, so the transport sends them in
 * one round trip. A pool that did not exist at the block fails the read (no data).
 */
export function readAccumulators(
  client: ChainClient,
  { pools, block }: ReadAccumulatorsParameters,
): Promise<PoolAccumulators[]> {
  const blockNumber = block.number
  return Promise.all(
    pools.map(async ({ protocol, address }): Promise<PoolAccumulators> => {
      if (protocol === 'v2') {
        const read = <Name extends 'price0CumulativeLast' | 'price1CumulativeLast'>(name: Name) =>
          readContract(client, { address, abi: v2AccumulatorAbi, functionName: name, blockNumber })
        const [price0CumulativeLast, price1CumulativeLast, [reserve0, reserve1, last]] =
          await Promise.all([
            read('price0CumulativeLast'),
            read('price1CumulativeLast'),
            readContract(client, {
              address,
              abi: v2AccumulatorAbi,
              functionName: 'getReserves',
              blockNumber,
            }),
          ])
        return {
          protocol,
          price0CumulativeLast,
          price1CumulativeLast,
          reserve0,
          reserve1,
          blockTimestampLast: last,
        }
      }
      const [[tickCumulatives], [sqrtPriceX96, tick]] = await Promise.all([
        readContract(client, {
          address,
          abi: v3AccumulatorAbi,
          functionName: 'observe',
          args: [[0]],
          blockNumber,
        }),
        readContract(client, {
          address,
          abi: v3AccumulatorAbi,
          functionName: 'slot0',
          blockNumber,
        }),
      ])
      return {
        protocol,
        tickCumulative: tickCumulatives[0] ?? 0n,
        timestamp: block.timestamp,
        tick,
        sqrtPriceX96,
      }
    }),
  )
}
