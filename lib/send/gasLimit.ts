import { estimateGas } from 'viem/actions'
import type { Address, Hex } from 'viem'
import { untrustedCallGas } from '../chain/callBudget'
import { publicClient } from '../chain/clients'
import type { NetworkName } from '../networkNames'
import { beforeBroadcast } from './sendError'

/**
 * The gas limit is the estimate times 1.5. A Uniswap V2 swap costs more when the block time moves
 * between estimate and inclusion (the pair writes its price accumulators then); on our devnet
 * 1.3x was not always enough. Unused gas is not charged.
 */
export const GAS_HEADROOM_PERCENT = 150n

export function withHeadroom(estimate: bigint): bigint {
  return (estimate * GAS_HEADROOM_PERCENT + 99n) / 100n
}

export interface EstimateGasLimitParameters {
  network: NetworkName
  /** Names the transaction in a failure: "swap", "approval", "transfer". */
  action: string
  from: Address
  to: Address
  data?: Hex
  value?: bigint
}

/**
 * eth_estimateGas with headroom. A revert, or funds short for the value, is a 422 here, before
 * anything is signed or sent.
 */
export async function estimateGasLimit(parameters: EstimateGasLimitParameters): Promise<bigint> {
  return withHeadroom(await estimateCall(parameters))
}

/** eth_estimateGas of a call, without headroom; a revert is a 422. */
function estimateCall({
  network,
  action,
  from,
  to,
  data,
  value,
}: EstimateGasLimitParameters): Promise<bigint> {
  const client = publicClient(network)
  // `prepare: false`: the node needs only these fields, and preparing would cost more calls.
  // `gas` caps the node's search: the call runs code a caller chose (DECISIONS §8.2).
  return beforeBroadcast(network, action, () =>
    estimateGas(client, {
      account: from,
      to,
      data,
      value,
      gas: untrustedCallGas(),
      prepare: false,
    }),
  )
}

/**
 * An estimate made beside other reads, before the call's last arguments are known: the gas of
 * `data` (without headroom), or the failure, reported once the reads are checked.
 */
export type GasEstimate = { gas: bigint; data: Hex } | { error: unknown }

/** estimateCall, settled either way, for a batch of reads that must not fail on it. */
export function estimateBeside(parameters: EstimateGasLimitParameters): Promise<GasEstimate> {
  return estimateCall(parameters).then(
    (gas) => ({ gas, data: parameters.data ?? '0x' }),
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

/**
 * The gas limit of `data` from an estimate of the same function with other arguments (an
 * `amountOutMin` of 0, an earlier deadline), which run the same code: the estimate plus what
 * `data` costs more as calldata, with headroom. A revert is the estimate's failure, a 422.
 */
export function limitFrom(estimate: GasEstimate, data: Hex): bigint {
  if ('error' in estimate) throw estimate.error
  const more = calldataGas(data) - calldataGas(estimate.data)
  return withHeadroom(estimate.gas + (more > 0n ? more : 0n))
}
