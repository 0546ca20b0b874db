import { call } from 'viem/actions'
import {
  maxUint256,
  type Address,
  decodeAbiParameters,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  type StateOverride,
  toHex,
} from 'viem'
import { untrustedCallGas } from '../../chain/callBudget'
import { onChain } from '../../chain/chainError'
import { publicClient } from '../../chain/clients'
import { ROUTER_PROBE_ADDRESS, ROUTER_PROBE_RUNTIME, routerProbeAbi } from '../../chain/routerProbe'
import { type SplitLeg, swapRouterCall } from '../../chain/swapRouterCall'
import type { NetworkName } from '../../networkNames'
import { Unprocessable } from '../../errors'

/**
 * The most gas a simulation may take: a split of 4 routes of 3 hops crossing many ticks needs
 * more than the 3,000,000 a call into caller-chosen code gets by default (UNTRUSTED_CALL_GAS),
 * and a simulation that runs out of gas says nothing about the route; still bounded, and
 * counted as one call of the request's budget like any other.
 */
export const SIMULATION_GAS_MAX = 12_000_000n

export interface SimulateSplitParameters {
  network: NetworkName
  router: Address
  legs: readonly SplitLeg[]
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  nativeIn: boolean
  nativeOut: boolean
  to: Address
  balanceSlot: Hex | null
  blockNumber: bigint
  /** The gas the model expects the call to take: the call gets twice that, at least the cap. */
  expectedGas: bigint
  /** A split's legs each pay `to` (swapRouterCall's `legsPayRecipient`). */
  legsPayRecipient?: boolean
}

export interface SimulatedSplit {
  /** What `to` received. */
  received: bigint
  /** What each of the multicall's inner calls returned, in order (a swap's: its output). */
  results: readonly Hex[]
}

/**
 * What `to` receives when the router runs the split's call, from RouterProbe placed by state
 * override and given exactly `amountIn` (one eth_call at the quote's block), with each inner
 * call's result; undefined when the call reverts or runs out of its gas (a route this token
 * cannot take).
 */
export async function simulateSplit(
  parameters: SimulateSplitParameters,
): Promise<SimulatedSplit | undefined> {
  const { legs, nativeIn, nativeOut, to } = parameters
  const routerCall = swapRouterCall({
    legs,
    amountOutMin: 0n,
    recipient: to,
    // The simulated block's clock is the node's, which may run ahead of ours (a devnet moved in
    // time, a node's clock): a simulation never expires. The user's call carries its own deadline.
    deadline: maxUint256,
    nativeIn,
    nativeOut,
    legsPayRecipient: parameters.legsPayRecipient ?? false,
  })
  return probeRouterCall(parameters, routerCall.data)
}

/** What the probe needs to run a router call: the sides, who receives, and the state to run on. */
export type ProbeParameters = Omit<SimulateSplitParameters, 'legs' | 'legsPayRecipient'>

/**
 * What `to` receives when the router runs `data` from RouterProbe, placed by state override and
 * given exactly `amountIn` (one eth_call at the block), with each inner call's result; undefined
 * when the call reverts or runs out of its gas.
 */
export async function probeRouterCall(
  parameters: ProbeParameters,
  data: Hex,
): Promise<SimulatedSplit | undefined> {
  const { network, router, tokenIn, tokenOut, amountIn, nativeIn, nativeOut, to } = parameters
  const stateOverride: StateOverride = [
    {
      address: ROUTER_PROBE_ADDRESS,
      code: ROUTER_PROBE_RUNTIME,
      balance: nativeIn ? amountIn : 0n,
    },
    ...(parameters.balanceSlot === null
      ? []
      : [
          {
            address: tokenIn,
            stateDiff: [{ slot: parameters.balanceSlot, value: toHex(amountIn, { size: 32 }) }],
          },
        ]),
  ]
  const cap = untrustedCallGas()
  const wanted = parameters.expectedGas * 2n
  const gas = wanted > cap ? (wanted < SIMULATION_GAS_MAX ? wanted : SIMULATION_GAS_MAX) : cap
  const simulated = onChain(network, () =>
    call(publicClient(network), {
      to: ROUTER_PROBE_ADDRESS,
      data: encodeFunctionData({
        abi: routerProbeAbi,
        functionName: 'simulate',
        args: [router, tokenIn, amountIn, nativeIn, tokenOut, nativeOut, to, data],
      }),
      stateOverride,
      gas,
      blockNumber: parameters.blockNumber,
    }),
  )
  try {
    const { data: returned } = await simulated
    const [received, results] = decodeFunctionResult({
      abi: routerProbeAbi,
      functionName: 'simulate',
      data: returned ?? '0x',
    })
    const [decoded] = decodeAbiParameters([{ type: 'bytes[]' }], results)
    return { received, results: decoded }
  } catch (error) {
    if (error instanceof Unprocessable) return undefined
    throw error
  }
}

/** A swap call's output from its result (exactInput and swapExactTokensForTokens: one uint256). */
export function swapCallOutput(result: Hex | undefined): bigint | undefined {
  if (!result || result.length < 66) return undefined
  return BigInt(result.slice(0, 66))
}
