import { estimateGas } from 'viem/actions'
import type { Address, Hex } from 'viem'
import { publicClient } from '../chain/clients'
import type { NetworkName } from '../config'
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
export async function estimateGasLimit({
  network,
  action,
  from,
  to,
  data,
  value,
}: EstimateGasLimitParameters): Promise<bigint> {
  const client = publicClient(network)
  // `prepare: false`: the node needs only these fields, and preparing would cost more calls.
  const estimate = await beforeBroadcast(network, action, () =>
    estimateGas(client, { account: from, to, data, value, prepare: false }),
  )
  return withHeadroom(estimate)
}

/** An estimate made beside other reads: its limit, or the failure, reported once they are checked. */
export type GasEstimate = { gas: bigint } | { error: unknown }

/** estimateGasLimit, settled either way, for a batch of reads that must not fail on it. */
export function estimateBeside(parameters: EstimateGasLimitParameters): Promise<GasEstimate> {
  return estimateGasLimit(parameters).then(
    (gas) => ({ gas }),
    (error: unknown) => ({ error }),
  )
}
