import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  type Hash,
  type Hex,
  parseUnits,
} from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { NetworkName } from '../config'
import { BadRequest, Unprocessable } from '../errors'
import { estimateGasLimit } from '../swap/gasLimit'
import { isNative, NATIVE_COIN } from '../constants'
import { assertDecimals, type Holding, readHolding } from '../swap/readHolding'
import { recordSent } from '../swap/recordSent'
import { type Fees, readSendContext, type SendContext } from '../swap/sendContext'
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

export interface PlanTransferParameters extends Omit<TransferTokensParameters, 'account'> {
  /** The wallet that sends. */
  owner: Address
}

/** A transfer once its reads are done and checked: signed here or on the client. */
export interface TransferPlan {
  context: SendContext
  fees: Fees
  holding: Holding
  token: Address
  /** Base units of the token. */
  amount: bigint
  native: boolean
  /** The call: the token's `transfer`, or a plain value transfer for the native coin. */
  transaction: { to: Address; data?: Hex; value?: bigint }
}

/**
 * One batch of reads (block, nonce, tip, balance, decimals) and the checks on them: stated
 * decimals and fraction digits (400), balance (422).
 */
export async function planTransfer(parameters: PlanTransferParameters): Promise<TransferPlan> {
  const { network, owner, to } = parameters
  const token = parameters.token ?? NATIVE_COIN
  const [context, holding] = await Promise.all([
    readSendContext(network, owner),
    readHolding({ network, owner, token }),
  ])
  if (parameters.decimals !== undefined) {
    assertDecimals('decimals', parameters.decimals, holding.decimals)
  }
  if ((parameters.amount.split('.')[1] ?? '').length > holding.decimals) {
    throw new BadRequest('the request is not valid', [
      {
        path: 'body.amount',
        message: `has more fraction digits than the token's ${holding.decimals}`,
      },
    ])
  }
  const amount = parseUnits(parameters.amount, holding.decimals)
  if (holding.balance < amount) {
    throw new Unprocessable(
      `insufficient balance: the wallet holds ${formatUnits(holding.balance, holding.decimals)} of ${token} on ${network}, the transfer needs ${parameters.amount}`,
    )
  }
  const native = isNative(token)
  const transaction = native
    ? { to, value: amount }
    : {
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
      }
  const fees = {
    maxFeePerGas: context.maxFeePerGas,
    maxPriorityFeePerGas: context.maxPriorityFeePerGas,
  }
  return { context, fees, holding, token, amount, native, transaction }
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
