import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  FeeCapTooLowError,
  InsufficientFundsError,
  IntrinsicGasTooLowError,
  NonceTooHighError,
  NonceTooLowError,
} from 'viem'
import { getNodeError } from 'viem/utils'
import { translateChainError, translatingFailure } from '../chain/chainError'
import { AppError, Conflict, Unprocessable } from '../errors'

const NODE_ERRORS = [
  InsufficientFundsError,
  NonceTooLowError,
  NonceTooHighError,
  FeeCapTooLowError,
  IntrinsicGasTooLowError,
  ExecutionRevertedError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
]

// A pool that holds another transaction with this nonce says so in words viem does not type.
const NONCE_TAKEN = /replacement transaction underpriced|replacement fee too low/i

// Node messages carry a prefix and sometimes the raw revert data; the reason is what a user reads.
function reasonOf(error: BaseError): string {
  const details = error instanceof ContractFunctionRevertedError ? error.reason : error.details
  const reason = (details ?? '').replace(/^execution reverted:?\s*/i, '').trim()
  return reason === '' ? 'no reason given' : reason
}

/**
 * Turns what a node reports before broadcasting (an estimate that reverts, funds short for gas,
 * a nonce already used) into a 422 or 409 that says so; node outages stay 502 (see chainError).
 */
export function translateSendError(error: unknown, network: string, action: string): unknown {
  if (error instanceof AppError || !(error instanceof BaseError)) return error
  const known =
    error.walk((cause) => NODE_ERRORS.some((type) => cause instanceof type)) ??
    getNodeError(error, {})
  if (known instanceof InsufficientFundsError) {
    return new Unprocessable(
      `the wallet's ${network} native balance does not cover the ${action} and its gas`,
    )
  }
  const nonceTaken = NONCE_TAKEN.test(error.message)
  if (known instanceof NonceTooLowError || known instanceof NonceTooHighError || nonceTaken) {
    return new Conflict(`another transaction of this wallet went out first on ${network}; retry`)
  }
  if (known instanceof FeeCapTooLowError || known instanceof IntrinsicGasTooLowError) {
    return new Unprocessable(`the ${network} node refused the ${action}: ${known.shortMessage}`)
  }
  if (known instanceof ContractFunctionZeroDataError) {
    return new Unprocessable(`the ${action} calls an address with no contract on ${network}`)
  }
  if (known instanceof ExecutionRevertedError || known instanceof ContractFunctionRevertedError) {
    return new Unprocessable(`the ${action} would revert on ${network}: ${reasonOf(known)}`)
  }
  return translateChainError(error, network)
}

/** Runs a call that prepares or sends a transaction and translates its failure. */
export function beforeBroadcast<Result>(
  network: string,
  action: string,
  call: () => Promise<Result>,
): Promise<Result> {
  return translatingFailure(call, (error) => translateSendError(error, network, action))
}
