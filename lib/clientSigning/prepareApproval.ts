import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem'
import { readUntrusted, withCallBudget } from '../chain/callBudget'
import { publicClient } from '../chain/clients'
import { loadServedNetworks } from '../config'
import { isNative } from '../constants'
import { BadRequest } from '../errors'
import type { NetworkName } from '../networkNames'
import { type Preview, previewSequence } from '../preview/previewSequence'
import { withNativeShortfall } from '../preview/previewChecks'
import { withHeadroom } from '../send/gasLimit'
import { readSendContext } from '../send/sendContext'
import { beforeBroadcast } from '../send/sendError'
import { approvalAmounts, swapRouterOf } from '../swap/routerAllowance'
import {
  type PlannedTransaction,
  readNativeBalance,
  unsignedSequence,
  type UnsignedTransaction,
} from './unsignedTransaction'

export interface PrepareApprovalParameters {
  network: NetworkName
  /** A token address, or the native sentinel (which a swap sends as value: never approved). */
  token: Address
  /** Base units the router must be allowed to take. */
  amount: bigint
  /** The wallet whose allowance is read and which would sign the approvals. */
  owner: Address
}

export interface PreparedApproval {
  needed: boolean
  spender: Address
  allowance: bigint
  amount: bigint
  transactions: UnsignedTransaction[]
  preview?: Preview
}

/**
 * Whether `owner` must approve the network's router for `amount` of `token` (DECISIONS §10.2),
 * and if so the unsigned approvals for exactly that amount, never unlimited: approve(router,
 * amount), after approve(router, 0) where the allowance is short but not zero (approvalAmounts,
 * as prepare and the `{key}` routes do). One allowance read answers whether; only a short
 * allowance reads the nonce, fees and native balance and simulates the approvals (their gas and
 * preview). A native coin needs none and makes no RPC call. A token that is not a contract, or
 * whose allowance read reverts, is a 422.
 */
export function prepareApproval(parameters: PrepareApprovalParameters): Promise<PreparedApproval> {
  const { network, token, amount } = parameters
  if (!loadServedNetworks().includes(network)) {
    throw new BadRequest(`this stage does not serve ${network}`)
  }
  const spender = swapRouterOf(network)
  if (isNative(token)) {
    return Promise.resolve({
      needed: false,
      spender,
      allowance: maxUint256,
      amount,
      transactions: [],
    })
  }
  return withCallBudget(() => approvalOf({ ...parameters, spender }))
}

async function approvalOf(
  parameters: PrepareApprovalParameters & { spender: Address },
): Promise<PreparedApproval> {
  const { network, token, amount, owner, spender } = parameters
  const client = publicClient(network)
  const allowance = await beforeBroadcast(network, `allowance read of token ${token}`, () =>
    readUntrusted(client, {
      address: token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [owner, spender],
    }),
  )
  const amounts = approvalAmounts(allowance, amount)
  if (amounts.length === 0) {
    return { needed: false, spender, allowance, amount, transactions: [] }
  }
  const planned = amounts.map((value): PlannedTransaction => ({
    kind: 'approval',
    description:
      value === 0n
        ? "reset the router's allowance to 0"
        : `approve ${value} base units of ${token} for the router`,
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, value] }),
    value: 0n,
  }))
  const [context, nativeBalance] = await Promise.all([
    readSendContext(network, owner),
    readNativeBalance(network, owner),
  ])
  const { preview, gasNeeded } = await previewSequence({
    network,
    owner,
    transactions: planned,
    blockNumber: context.blockNumber,
    // The approvals set the allowance: nothing of the token is spent, no allowance is short.
    need: { token, amount: 0n, balance: 0n, spender, allowance: 0n },
    holders: [],
    tokens: [token],
  })
  const { transactions, nativeShortfall } = unsignedSequence({
    network,
    context,
    nativeBalance,
    transactions: planned,
    gas: gasNeeded.map(withHeadroom),
  })
  return {
    needed: true,
    spender,
    allowance,
    amount,
    transactions,
    preview: withNativeShortfall(preview, nativeShortfall),
  }
}
