import { BaseError, ContractFunctionRevertedError, HttpRequestError, TimeoutError } from 'viem'
import { ChainUnavailable, Unprocessable } from '../errors'

/**
 * Turns a viem failure into the service's errors: a node that failed or timed out is 502, a
 * revert is 422 with the contract's reason. Anything else is returned as is.
 */
export function translateChainError(error: unknown, network: string): unknown {
  if (!(error instanceof BaseError)) return error
  if (error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError)) {
    return new ChainUnavailable(network)
  }
  const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError)
  if (revert instanceof ContractFunctionRevertedError) {
    return new Unprocessable(
      `the ${network} contract call reverted: ${revert.reason ?? 'no reason'}`,
    )
  }
  return error
}

/** Runs a chain call and translates its failure; for every chain read made on a request path. */
export async function onChain<Result>(
  network: string,
  call: () => Promise<Result>,
): Promise<Result> {
  try {
    return await call()
  } catch (error) {
    throw translateChainError(error, network)
  }
}
