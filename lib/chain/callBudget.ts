import { AsyncLocalStorage } from 'node:async_hooks'
import type {
  Abi,
  ContractFunctionArgs,
  ContractFunctionName,
  ReadContractParameters,
  ReadContractReturnType,
} from 'viem'
import { readContract } from 'viem/actions'
import { loadUntrustedCallConfig } from '../config'
import { CallBudgetSpent } from '../errors'
import type { ChainClient } from './clients'

/** The calls a request may still make into code a caller chose. */
interface CallBudget {
  left: number
}

const budgets = new AsyncLocalStorage<CallBudget>()

/**
 * Runs a request's work with a fresh budget of calls into code its caller chose (DECISIONS §8.2):
 * `UNTRUSTED_CALLS_PER_REQUEST`, each capped at `UNTRUSTED_CALL_GAS` (untrustedCallGas). Scoped
 * by AsyncLocalStorage, so the reads deep in quoting and planning take from it without each
 * signature carrying it.
 */
export function withCallBudget<Result>(run: () => Promise<Result>): Promise<Result> {
  return budgets.run({ left: loadUntrustedCallConfig().callsPerRequest }, run)
}

/**
 * The gas an `eth_call`, `eth_estimateGas` or simulated call whose target a caller chose may
 * burn, for its `gas` field; takes one call from the request's budget, and once that is spent
 * refuses the request (422) before the call leaves. Outside withCallBudget (schedules, scripts),
 * only the cap applies.
 */
export function untrustedCallGas(): bigint {
  const { gasPerCall, callsPerRequest } = loadUntrustedCallConfig()
  const budget = budgets.getStore()
  if (budget) {
    if (budget.left <= 0) throw new CallBudgetSpent(callsPerRequest)
    budget.left -= 1
  }
  return gasPerCall
}

/**
 * readContract with `gas: untrustedCallGas()`. viem's type leaves `gas` out of a read, but its
 * code hands every other field to the `eth_call` (tests/functions/swap/untrustedToken.test.ts
 * checks the field at the transport).
 */
export function readUntrusted<
  const abi extends Abi | readonly unknown[],
  functionName extends ContractFunctionName<abi, 'pure' | 'view'>,
  const args extends ContractFunctionArgs<abi, 'pure' | 'view', functionName>,
>(
  client: ChainClient,
  parameters: ReadContractParameters<abi, functionName, args>,
): Promise<ReadContractReturnType<abi, functionName, args>> {
  const capped = { ...parameters, gas: untrustedCallGas() }
  return readContract(client, capped as ReadContractParameters<abi, functionName, args>)
}
