import { type Address, encodeFunctionData, erc20Abi, formatUnits, type Hex, parseUnits } from 'viem'
import { isNative, NATIVE_COIN } from '../constants'
import { BadRequest, Unprocessable } from '../errors'
import { estimateBeside, limitFrom } from '../send/gasLimit'
import { assertDecimals, type Holding, readHolding } from '../send/readHolding'
import { type Fees, readSendContext, type SendContext } from '../send/sendContext'
import type { NetworkName } from '../networkNames'

export interface PlanTransferParameters {
  network: NetworkName
  /** The wallet that sends. */
  owner: Address
  to: Address
  /** Decimal string in whole units of the token. */
  amount: string
  /** Absent or the native sentinel: the native coin. */
  token?: Address
  /** Checked against the contract when given, read from it otherwise. */
  decimals?: number
  /** Plan on when the balance is short (prepare's preview names it) instead of a 422. */
  reportShortBalance?: boolean
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
  /**
   * Its gas limit (with headroom), estimated beside the reads when the decimals were known
   * (stated, or the native coin's 18); undefined otherwise: estimate it before signing.
   */
  gas?: bigint
}

type TransferCall = TransferPlan['transaction']

function transferCall(token: Address, to: Address, amount: bigint): TransferCall {
  return isNative(token)
    ? { to, value: amount }
    : {
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
      }
}

/** The decimals known before any read: the stated ones, or the native coin's. */
function knownDecimals(token: Address, stated: number | undefined): number | undefined {
  return isNative(token) ? 18 : stated
}

/** Whether `amount` has at most `decimals` fraction digits (it is refused otherwise). */
function fits(amount: string, decimals: number): boolean {
  return (amount.split('.')[1] ?? '').length <= decimals
}

/**
 * One batch of reads (block, nonce, tip, balance, decimals) and the checks on them: stated
 * decimals and fraction digits (400), balance (422).
 */
export async function planTransfer(parameters: PlanTransferParameters): Promise<TransferPlan> {
  const { network, owner, to } = parameters
  const token = parameters.token ?? NATIVE_COIN
  // With the decimals known, the call is too: its estimate joins the batch of reads.
  const decimals = knownDecimals(token, parameters.decimals)
  const early =
    decimals !== undefined && fits(parameters.amount, decimals)
      ? estimateBeside({
          network,
          action: 'transfer',
          from: owner,
          ...transferCall(token, to, parseUnits(parameters.amount, decimals)),
        })
      : undefined
  const [context, holding] = await Promise.all([
    readSendContext(network, owner),
    readHolding({ network, owner, token }),
  ])
  if (parameters.decimals !== undefined) {
    assertDecimals('decimals', parameters.decimals, holding.decimals)
  }
  if (!fits(parameters.amount, holding.decimals)) {
    throw new BadRequest('the request is not valid', [
      {
        path: 'body.amount',
        message: `has more fraction digits than the token's ${holding.decimals}`,
      },
    ])
  }
  const amount = parseUnits(parameters.amount, holding.decimals)
  if (holding.balance < amount && !parameters.reportShortBalance) {
    throw new Unprocessable(
      `insufficient balance: the wallet holds ${formatUnits(holding.balance, holding.decimals)} of ${token} on ${network}, the transfer needs ${parameters.amount}`,
    )
  }
  const native = isNative(token)
  const transaction = transferCall(token, to, amount)
  const fees = {
    maxFeePerGas: context.maxFeePerGas,
    maxPriorityFeePerGas: context.maxPriorityFeePerGas,
  }
  // The estimate was of this very call: its revert is the transfer's 422, reported after the
  // checks above as before.
  const estimate = early && (await early)
  // Short of its balance the estimate reverted: prepare takes the gas from its simulation.
  const gas =
    estimate && !('error' in estimate && parameters.reportShortBalance)
      ? limitFrom(estimate, transaction.data ?? '0x')
      : undefined
  return { context, fees, holding, token, amount, native, transaction, gas }
}
