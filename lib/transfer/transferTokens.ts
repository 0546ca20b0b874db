import { type Address, formatUnits } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { NetworkName } from '../networkNames'
import { estimateGasLimit } from '../send/gasLimit'
import type { SendOperation } from '../send/idempotent'
import { planTransfer, type TransferPlan } from './transferPlan'
import { sendSigned } from '../send/sendSigned'
import { refuseFailedSimulation } from '../preview/previewChecks'
import { previewTransfer } from './transferPreview'

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
 * native coin. The plan is one batch of reads (block, nonce, tip, balance, decimals, and the
 * estimate when the decimals are known); the send is the broadcast (the estimate first when the
 * decimals had to be read).
 */
export function transferTokens(parameters: TransferTokensParameters): SendOperation<TransferPlan> {
  const { network, account, to } = parameters
  const action = 'transfer'
  return {
    plan: () => planTransfer({ ...parameters, owner: account.address }),
    async send(plan) {
      const { context, fees, holding, token, amount, native, transaction } = plan
      // Simulated before it is sent (DECISIONS §10.2): a revert is a 422 and nothing leaves.
      const { preview } = await previewTransfer({ network, owner: account.address, to, plan })
      refuseFailedSimulation(preview, network)
      const gas =
        plan.gas ??
        (await estimateGasLimit({ network, action, from: account.address, ...transaction }))
      const hash = await sendSigned({
        network,
        action,
        account,
        nonce: context.nonce,
        fees,
        gas,
        ...transaction,
      })
      return {
        txId: hash,
        preview,
        trade: {
          hash,
          type: 'transfer',
          network,
          wallet: account.address,
          from: account.address,
          to,
          amount: formatUnits(amount, holding.decimals),
          token,
          isNativeTransfer: native,
        },
      }
    },
  }
}
