import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  parseAbi,
  parseSignature,
} from 'viem'

// EIP-2612 permits through SwapRouter02's SelfPermit (DECISIONS §10.2): the wallet signs an
// EIP-712 `Permit` for the router and the exact amount, and the swap's multicall starts with
// `selfPermit`, which calls the token's `permit` as the signer: one transaction, and the swap
// spends the whole allowance it set, so none stands after.

export const selfPermitAbi = parseAbi([
  'function selfPermit(address token, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) payable',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
])

/** EIP-2612's `Permit` struct, as OpenZeppelin's ERC20Permit (and USDC) hash it. */
export const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

/** The EIP712Domain fields of a permit's domain, as eth_signTypedData_v4 wants them listed. */
export const PERMIT_DOMAIN_FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const

/**
 * How long a permit the service prepares stays valid: short, since the wallet signs the swap right
 * after (and an unused signature is a standing allowance until then).
 */
export const PERMIT_DEADLINE_SECONDS = 10 * 60
/** The longest a submitted permit may still run: longer is refused (400) as not a short one. */
export const MAX_PERMIT_DEADLINE_SECONDS = 60 * 60

export interface PermitDomain {
  name: string
  version: string
  chainId: number
  verifyingContract: Address
}

export interface PermitMessage {
  owner: Address
  spender: Address
  value: bigint
  nonce: bigint
  deadline: bigint
}

/** The EIP-712 typed data of a permit, as viem's signTypedData and eth_signTypedData_v4 take it. */
export function permitTypedData(domain: PermitDomain, message: PermitMessage) {
  return { domain, types: PERMIT_TYPES, primaryType: 'Permit' as const, message }
}

/** A permit's signed fields, as `selfPermit` carries them. */
export interface SignedPermit {
  token: Address
  value: bigint
  deadline: bigint
  /** 65 bytes, r ‖ s ‖ v (v 27 or 28, or a y-parity 0 or 1). */
  signature: Hex
}

/** The router's `selfPermit(token, value, deadline, v, r, s)` call of a signed permit. */
export function selfPermitCall({ token, value, deadline, signature }: SignedPermit): Hex {
  const { r, s, v, yParity } = parseSignature(signature)
  const recovery = v ?? 27n + BigInt(yParity)
  return encodeFunctionData({
    abi: selfPermitAbi,
    functionName: 'selfPermit',
    args: [token, value, deadline, Number(recovery), r, s],
  })
}

/**
 * The router's `multicall(deadline, data)` with `selfPermit` first: the call swapRouterCall built,
 * otherwise as it was (the permit sets the allowance the swaps after it spend).
 */
export function withSelfPermit(multicall: Hex, permit: SignedPermit): Hex {
  const call = decodeFunctionData({ abi: selfPermitAbi, data: multicall })
  if (call.functionName !== 'multicall') throw new Error('a swap is one multicall(deadline, data)')
  const [deadline, calls] = call.args
  return encodeFunctionData({
    abi: selfPermitAbi,
    functionName: 'multicall',
    args: [deadline, [selfPermitCall(permit), ...calls]],
  })
}
