import type { Hex } from 'viem'
import {
  calldataGas,
  estimateCallGas,
  type EstimateCallGasParameters,
  type GasEstimate,
  settledEstimate,
} from '../chain/estimateCallGas'
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

export interface EstimateGasLimitParameters extends EstimateCallGasParameters {
  /** Names the transaction in a failure: "swap", "approval", "transfer". */
  action: string
}

/**
 * eth_estimateGas with headroom. A revert, or funds short for the value, is a 422 here, before
 * anything is signed or sent.
 */
export async function estimateGasLimit(parameters: EstimateGasLimitParameters): Promise<bigint> {
  return withHeadroom(await estimateCall(parameters))
}

/** eth_estimateGas of a call, without headroom; a revert is a 422. */
function estimateCall({ action, ...call }: EstimateGasLimitParameters): Promise<bigint> {
  return beforeBroadcast(call.network, action, () => estimateCallGas(call))
}

/**
 * estimateCall, settled either way, for a batch of reads that must not fail on it (a transfer's;
 * a swap's route is estimated by the routing engine, lib/routing/gas/estimateRouteGas.ts).
 */
export function estimateBeside(parameters: EstimateGasLimitParameters): Promise<GasEstimate> {
  return settledEstimate(estimateCall(parameters), parameters.data)
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
