import { type Address, type Hex } from 'viem'
import { isNative } from '../constants'
import { BadRequest } from '../errors'
import type { NetworkName } from '../networkNames'
import { PERMIT_DOMAIN_FIELDS, type SignedPermit } from '../swap/permit'
import { permittedPlan, permitToSign, startOf } from '../swap/permitSwap'
import { lookUpPermitSupport } from '../swap/permitSupport'
import type { SwapPlan } from '../swap/swapPlan'
import { checkPermit } from './checkPermit'

/** A permit the wallet signed from a prepare answer's `permit`, sent back with the same swap. */
export interface PermitSignature {
  /** The deadline it was signed with, epoch seconds. */
  deadline: number
  /** 65 bytes of EIP-712 signature, 0x-hex (the body's schema checked its shape). */
  signature: string
}

/** The EIP-712 permit a prepare answer offers, quantities as decimal strings (JSON). */
export interface PermitOffer {
  typedData: {
    domain: { name: string; version: string; chainId: number; verifyingContract: Address }
    types: {
      EIP712Domain: { name: string; type: string }[]
      Permit: { name: string; type: string }[]
    }
    primaryType: 'Permit'
    message: { owner: Address; spender: Address; value: string; nonce: string; deadline: string }
  }
  deadline: number
}

export interface PermitStepParameters {
  network: NetworkName
  owner: Address
  address0: Address
  plan: SwapPlan
  permit?: PermitSignature
  now?: Date
}

/** What a prepare does with a permit: offers one to sign, or builds the swap on a signed one. */
export type PermitStep =
  | { kind: 'none'; plan: SwapPlan }
  | { kind: 'offer'; plan: SwapPlan; offer: PermitOffer }
  | { kind: 'signed'; plan: SwapPlan; signed: SignedPermit }

const PATH = 'body.permit'

/**
 * The permit step of a prepare (DECISIONS §10.2, docs/trading.md): without `permit`, where the
 * allowance is short and token0 has EIP-2612, the typed data to sign beside the approval flow
 * (the wallet may sign it and prepare again, or sign the approvals); with `permit`, the signature
 * verified (checkPermit: 400 on any other chain, token, spender, amount, nonce or deadline) and
 * the plan without approvals, its swap to start with selfPermit. A permit where none is needed
 * (the coin, an allowance that covers the swap) is 400.
 */
export async function permitStep(parameters: PermitStepParameters): Promise<PermitStep> {
  const { network, owner, address0, plan, permit, now } = parameters
  if (!permit) {
    const typedData = await permitToSign({
      network,
      owner,
      token: address0,
      plan,
      now,
      lookup: lookUpPermitSupport,
    })
    if (!typedData) return { kind: 'none', plan }
    const { message } = typedData
    const offer: PermitOffer = {
      typedData: {
        ...typedData,
        // EIP712Domain listed too: eth_signTypedData_v4 wallets hash the domain by it.
        types: {
          EIP712Domain: PERMIT_DOMAIN_FIELDS.map((field) => ({ ...field })),
          Permit: typedData.types.Permit.map((field) => ({ ...field })),
        },
        message: {
          ...message,
          value: message.value.toString(),
          nonce: message.nonce.toString(),
          deadline: message.deadline.toString(),
        },
      },
      deadline: Number(message.deadline),
    }
    return { kind: 'offer', plan, offer }
  }
  const refuse = (message: string): never => {
    throw new BadRequest('the permit is not valid; nothing was sent', [{ path: PATH, message }])
  }
  if (isNative(address0)) refuse('the native coin is sent as value and needs no permit')
  if (plan.approvals.length === 0) {
    refuse('the router may already spend the swap’s amount: prepare again without a permit')
  }
  const deadline = BigInt(permit.deadline)
  const signature = permit.signature as Hex
  await checkPermit({
    network,
    owner,
    token: address0,
    spender: plan.router,
    value: plan.amountIn,
    deadline,
    signature,
    now: startOf(plan, now),
    path: PATH,
    lookup: lookUpPermitSupport,
  })
  const signed = { token: address0, value: plan.amountIn, deadline, signature }
  return { kind: 'signed', plan: permittedPlan(plan), signed }
}
