import { estimateGas } from 'viem/actions'
import type { Address, Hex } from 'viem'
import type { NetworkName } from '../networkNames'
import { untrustedCallGas } from './callBudget'
import { publicClient } from './clients'

// The node's estimate of a call, below both the send pipeline (a transaction's gas limit) and the
// routing engine (a route's call, estimated beside its simulation): neither asks the other for it.

export interface EstimateCallGasParameters {
  network: NetworkName
  from: Address
  to: Address
  data?: Hex
  value?: bigint
}

/**
 * eth_estimateGas of a call, without headroom, its failure as the node gave it (each caller
 * translates it for its own action).
 */
export function estimateCallGas({
  network,
  from,
  to,
  data,
  value,
}: EstimateCallGasParameters): Promise<bigint> {
  // `prepare: false`: the node needs only these fields, and preparing would cost more calls.
  // `gas` caps the node's search: the call runs code a caller chose (DECISIONS §8.2).
  return estimateGas(publicClient(network), {
    account: from,
    to,
    data,
    value,
    gas: untrustedCallGas(),
    prepare: false,
  })
}

/**
 * An estimate made beside other reads, before the call's last arguments are known: the gas of
 * `data` (without headroom), or the failure, reported once the reads are checked.
 */
export type GasEstimate = { gas: bigint; data: Hex } | { error: unknown }

/** An estimate settled either way, for a batch of reads that must not fail on it. */
export function settledEstimate(
  estimate: Promise<bigint>,
  data: Hex | undefined,
): Promise<GasEstimate> {
  return estimate.then(
    (gas) => ({ gas, data: data ?? '0x' }),
    (error: unknown) => ({ error }),
  )
}

/** What the node charges for a call's data (EIP-2028): 4 gas a zero byte, 16 any other. */
export function calldataGas(data: Hex): bigint {
  let gas = 0n
  for (let index = 2; index < data.length; index += 2) {
    gas += data.slice(index, index + 2) === '00' ? 4n : 16n
  }
  return gas
}
