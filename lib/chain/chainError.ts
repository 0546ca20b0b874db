import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
} from 'viem'
import { ChainUnavailable, Unprocessable } from '../errors'

// JSON-RPC code 3 is how nodes answer a reverted eth_call/estimate: the contract's answer, not
// the node's failure.
const REVERT_CODE = 3

export function isRevert(error: BaseError): boolean {
  return Boolean(
    error.walk(
      (cause) =>
        cause instanceof ContractFunctionRevertedError ||
        cause instanceof ExecutionRevertedError ||
        (cause instanceof RpcRequestError &&
          (cause.code === REVERT_CODE || /revert/i.test(cause.details))),
    ),
  )
}

// How nodes word a call that ran out of the gas it was given: geth "out of gas" or "gas required
// exceeds allowance", anvil -32603 "EVM error OutOfGas". The contract's doing, not the node's.
const OUT_OF_GAS = /out ?of ?gas|gas required exceeds allowance/i

/** Whether a call ran out of its gas (a contract that burns what it gets): an answer. */
export function isOutOfGas(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    Boolean(
      error.walk(
        (cause) =>
          cause instanceof RpcRequestError &&
          (OUT_OF_GAS.test(cause.details) || OUT_OF_GAS.test(cause.shortMessage)),
      ),
    )
  )
}

// JSON-RPC codes a provider answers when it, not the request, is at fault: rate or size limit,
// resource unavailable, internal error, method not offered, and HTTP 429 passed through.
const PROVIDER_FAULT_CODES = new Set([-32005, -32002, -32603, -32601, 429])

/**
 * Whether the node itself failed (unreachable, silent, rate-limited, broken), so another node may
 * answer; a revert, a call out of gas or a refused transaction (nonce, funds) is an answer, not a
 * failure.
 */
export function isNodeFailure(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    !isOutOfGas(error) &&
    Boolean(
      error.walk(
        (cause) =>
          cause instanceof HttpRequestError ||
          cause instanceof TimeoutError ||
          (cause instanceof RpcRequestError && PROVIDER_FAULT_CODES.has(cause.code)),
      ),
    )
  )
}

/**
 * Turns a viem failure into the service's errors (DECISIONS §7.2): a revert is 422 with the
 * contract's reason; any failure of the node itself (HTTP error or rate limit, timeout, JSON-RPC
 * error such as -32005 or -32603, a malformed answer) is 502. An empty answer from a call
 * (`ContractFunctionZeroDataError`: no contract there) is returned as is, for the caller to judge.
 */
export function translateChainError(error: unknown, network: string): unknown {
  if (!(error instanceof BaseError)) return error
  if (error.walk((cause) => cause instanceof ContractFunctionZeroDataError)) return error
  if (isOutOfGas(error)) {
    return new Unprocessable(`a contract call on ${network} ran out of the gas it may use`)
  }
  if (isRevert(error)) {
    const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError)
    const reason = revert instanceof ContractFunctionRevertedError ? revert.reason : undefined
    return new Unprocessable(`the ${network} contract call reverted: ${reason ?? 'no reason'}`)
  }
  return new ChainUnavailable(network)
}

/** Runs a call and throws its failure as `translate` turns it into the service's errors. */
export async function translatingFailure<Result>(
  call: () => Promise<Result>,
  translate: (error: unknown) => unknown,
): Promise<Result> {
  try {
    return await call()
  } catch (error) {
    throw translate(error)
  }
}

/** Runs a chain call and translates its failure; for every chain read made on a request path. */
export function onChain<Result>(network: string, call: () => Promise<Result>): Promise<Result> {
  return translatingFailure(call, (error) => translateChainError(error, network))
}
