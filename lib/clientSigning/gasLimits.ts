import {
  type Address,
  BaseError,
  type Hex,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  RpcRequestError,
} from 'viem'
import { simulateBlocks } from 'viem/actions'
import { untrustedCallGas } from '../chain/callBudget'
import { publicClient } from '../chain/clients'
import type { NetworkName } from '../networkNames'
import { ChainUnavailable, Unprocessable } from '../errors'
import { estimateGasLimit, withHeadroom } from '../send/gasLimit'
import { beforeBroadcast, translateSendError } from '../send/sendError'

export interface GasCall {
  /** Names the transaction in a failure: "swap", "approval", "transfer". */
  kind: string
  to: Address
  data: Hex
  value: bigint
}

function isMethodMissing(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    Boolean(
      error.walk(
        (cause) =>
          cause instanceof MethodNotFoundRpcError ||
          cause instanceof MethodNotSupportedRpcError ||
          (cause instanceof RpcRequestError && cause.code === -32601),
      ),
    )
  )
}

/**
 * The gas limit of each call, sent in order by `from`, with the usual headroom. One call is
 * estimated (eth_estimateGas). A sequence cannot be: the swap after an approval reverts until the
 * approval is mined. So the sequence is simulated in one block (eth_simulateV1, one RPC call), each
 * call on the state the previous ones left, and each limit taken from the gas it used (the most it
 * used before refunds, where the node reports it). A revert anywhere is a 422.
 */
export async function gasLimits(
  network: NetworkName,
  from: Address,
  calls: readonly GasCall[],
): Promise<bigint[]> {
  const [only] = calls
  if (calls.length === 1 && only) {
    return [await estimateGasLimit({ network, action: only.kind, from, ...only })]
  }
  const action = calls.map((call) => call.kind).join(' and ')
  const [block] = await beforeBroadcast(network, action, () =>
    simulateBlocks(publicClient(network), {
      blocks: [
        {
          calls: calls.map(({ to, data, value }) => ({
            account: from,
            to,
            data,
            value,
            gas: untrustedCallGas(),
          })),
        },
      ],
      validation: false,
    }).catch((error: unknown) => {
      if (isMethodMissing(error)) {
        throw new ChainUnavailable(
          network,
          `the ${network} node does not offer eth_simulateV1, which the gas of an approval and a swap is found with; approve the router first or use the {key} route`,
        )
      }
      throw error
    }),
  )
  return calls.map((call, index) => {
    const result = block?.calls[index]
    if (!result) throw new Unprocessable(`the ${network} node did not simulate the ${call.kind}`)
    if (result.status !== 'success') {
      const translated = translateSendError(result.error, network, call.kind)
      throw translated instanceof Unprocessable
        ? translated
        : new Unprocessable(`the ${call.kind} would revert on ${network}`)
    }
    return withHeadroom(result.maxUsedGas ?? result.gasUsed)
  })
}
