import type { Address } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { isNative } from '../constants'
import type { NetworkName } from '../networkNames'
import {
  PERMIT_DEADLINE_SECONDS,
  type PermitMessage,
  permitTypedData,
  type SignedPermit,
} from './permit'
import {
  type PermitLookup,
  permitDomainOf,
  permitSupportOf,
  readPermitNonce,
} from './permitSupport'
import type { SwapPlan } from './swapPlan'

export interface PermitToSignParameters {
  network: NetworkName
  owner: Address
  /** The swap's input: a token, or the native sentinel (which needs no permit). */
  token: Address
  plan: SwapPlan
  now?: Date
  /** How the token's support is learnt (prepare may not write the table; a `{key}` swap does). */
  lookup: PermitLookup
}

/**
 * The EIP-712 permit a swap can take instead of its approvals (DECISIONS §10.2), when its
 * allowance is short and its input token implements EIP-2612 (probed on chain, cached): the
 * router as spender, exactly the swap's input, the owner's current nonce, and a deadline
 * PERMIT_DEADLINE_SECONDS from the later of the clock and the quoted block. Undefined otherwise.
 */
export async function permitToSign(parameters: PermitToSignParameters) {
  const { network, owner, token, plan, now, lookup } = parameters
  if (isNative(token) || plan.approvals.length === 0) return undefined
  const support = await lookup(network, token, plan.router)
  if (!support.supported) return undefined
  const nonce = await readPermitNonce(network, token, owner)
  const message: PermitMessage = {
    owner,
    spender: plan.router,
    value: plan.amountIn,
    nonce,
    deadline: startOf(plan, now) + BigInt(PERMIT_DEADLINE_SECONDS),
  }
  return permitTypedData(permitDomainOf(network, token, support), message)
}

/** The later of the clock and the quoted block's time, epoch seconds (as a swap's deadline counts). */
export function startOf(plan: SwapPlan, now?: Date): bigint {
  const clock = BigInt(Math.floor((now ?? new Date()).getTime() / 1000))
  return clock > plan.context.timestamp ? clock : plan.context.timestamp
}

/**
 * The plan once a permit covers its allowance: no approvals, and the allowance the permit sets
 * (the swap's input exactly), so its preview and gas are those of the one permit swap.
 */
export function permittedPlan(plan: SwapPlan): SwapPlan {
  return { ...plan, approvals: [], holding: { ...plan.holding, allowance: plan.amountIn } }
}

/**
 * A `{key}` swap's permit, signed by its own key (DECISIONS §10.2: one transaction, no approval),
 * when permitToSign offers one.
 */
export async function signPermit(
  parameters: Omit<PermitToSignParameters, 'lookup'> & { account: PrivateKeyAccount },
): Promise<SignedPermit | undefined> {
  const typedData = await permitToSign({ ...parameters, lookup: permitSupportOf })
  if (!typedData) return undefined
  const signature = await parameters.account.signTypedData(typedData)
  const { verifyingContract: token } = typedData.domain
  const { value, deadline } = typedData.message
  return { token, value, deadline, signature }
}
