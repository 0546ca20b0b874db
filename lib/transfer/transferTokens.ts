import { type Address, formatUnits, type Hash } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { NetworkName } from '../config'
import { estimateGasLimit } from '../swap/gasLimit'
import { planTransfer } from './transferPlan'
import { recordSent } from '../swap/recordSent'
import { sendSigned } from '../swap/sendSigned'

export interface TransferTokensParameters {
  network: NetworkName
  account: PrivateKeyAccount
  to: Address
  /** Decimal string in whole units of the token. */
  amount: string
  /** Absent or the native sentinel: the native coin. */
  token?: Address
  /** Checked against the contract when given, read from it otherwise. */
  decimals?: number
}

/**
 * Sends `amount` to `to`: the token's ERC-20 `transfer`, or a plain value transfer for the
 * native coin. One batch of reads (block, nonce, tip, balance, decimals), the estimate, the send.
 */
export async function transferTokens(
  parameters: TransferTokensParameters,
): Promise<{ txId: Hash }> {
  const { network, account, to } = parameters
  const plan = await planTransfer({ ...parameters, owner: account.address })
  const { context, fees, holding, token, amount, native, transaction } = plan
  const action = 'transfer'
  const gas = await estimateGasLimit({ network, action, from: account.address, ...transaction })
  const hash = await sendSigned({
    network,
    action,
    account,
    nonce: context.nonce,
    fees,
    gas,
    ...transaction,
  })
  await recordSent({
    hash,
    type: 'transfer',
    network,
    wallet: account.address,
    from: account.address,
    to,
    amount: formatUnits(amount, holding.decimals),
    token,
    isNativeTransfer: native,
  })
  return { txId: hash }
}
