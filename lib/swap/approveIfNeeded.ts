import { type Address, encodeFunctionData, erc20Abi, formatUnits } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { NetworkName } from '../networkNames'
import { estimateGasLimit } from '../send/gasLimit'
import { recordSent } from '../send/recordSent'
import type { Fees } from '../send/sendContext'
import { sendSigned, waitForSuccess } from '../send/sendSigned'
import { approvalAmounts } from './routerAllowance'

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
 * When the spender's allowance is short, approves exactly `amount` (resetting a non-zero
 * allowance to 0 first), records each approval and waits until each is mined (the next one and
 * the swap's estimate would fail before). Returns how many transactions it sent, from `nonce` on.
 */
export async function approveIfNeeded(parameters: ApproveIfNeededParameters): Promise<number> {
  const { network, account, token, decimals, spender, amount, allowance, nonce, fees } = parameters
  const approvals = approvalAmounts(allowance, amount)
  for (const [index, value] of approvals.entries()) {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender, value],
    })
    const action = 'approval'
    const gas = await estimateGasLimit({ network, action, from: account.address, to: token, data })
    const hash = await sendSigned({
      network,
      action,
      account,
      nonce: nonce + index,
      fees,
      gas,
      to: token,
      data,
    })
    await recordSent({
      hash,
      type: 'approval',
      network,
      wallet: account.address,
      from: account.address,
      // The counterparty of an approval is the spender, not the token contract it is sent to.
      to: spender,
      amount: formatUnits(value, decimals),
      token,
      isNativeTransfer: false,
    })
    await waitForSuccess(network, action, hash)
  }
  return approvals.length
}
