import { type Address, encodeFunctionData, erc20Abi, formatUnits } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { NetworkName } from '../config'
import { estimateGasLimit } from './gasLimit'
import { recordSent } from './recordSent'
import type { Fees } from './sendContext'
import { sendSigned, waitForSuccess } from './sendSigned'

export interface ApproveIfNeededParameters {
  network: NetworkName
  account: PrivateKeyAccount
  token: Address
  decimals: number
  spender: Address
  amount: bigint
  /** The allowance already read. */
  allowance: bigint
  nonce: number
  fees: Fees
}

/**
 * When the spender's allowance is short, approves exactly `amount`, records the approval and
 * waits until it is mined (the swap's estimate would revert before). Returns whether it sent one.
 */
export async function approveIfNeeded(parameters: ApproveIfNeededParameters): Promise<boolean> {
  const { network, account, token, decimals, spender, amount, allowance, nonce, fees } = parameters
  if (allowance >= amount) return false
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'approve',
    args: [spender, amount],
  })
  const action = 'approval'
  const gas = await estimateGasLimit({ network, action, from: account.address, to: token, data })
  const hash = await sendSigned({ network, action, account, nonce, fees, gas, to: token, data })
  await recordSent({
    hash,
    type: 'approval',
    network,
    wallet: account.address,
    from: account.address,
    // The counterparty of an approval is the spender, not the token contract it is sent to.
    to: spender,
    amount: formatUnits(amount, decimals),
    token,
    isNativeTransfer: false,
  })
  await waitForSuccess(network, action, hash)
  return true
}
