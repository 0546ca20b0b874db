import { type Address, getAddress, type Hex, isAddressEqual, recoverTypedDataAddress } from 'viem'
import { BadRequest } from '../errors'
import type { NetworkName } from '../networkNames'
import { MAX_PERMIT_DEADLINE_SECONDS, permitTypedData } from '../swap/permit'
import { type PermitLookup, permitDomainOf, readPermitNonce } from '../swap/permitSupport'

export interface CheckPermitParameters {
  network: NetworkName
  /** The signed-in wallet: the permit's owner and signer. */
  owner: Address
  token: Address
  /** The router, the only spender a permit may name. */
  spender: Address
  /** Exactly what the swap spends: the only amount a permit may name. */
  value: bigint
  deadline: bigint
  signature: Hex
  /** The later of the clock and the chain's last block, epoch seconds. */
  now: bigint
  /** Where the permit sits in the request, for the 400's detail. */
  path: string
  /** How the token's support is learnt (a prepare's role may not write the table). */
  lookup: PermitLookup
}

/**
 * Verifies a permit the wallet signed before anything is sent (DECISIONS §10.2): its deadline in
 * the future and at most MAX_PERMIT_DEADLINE_SECONDS away; the token's permit probed on chain
 * (cached); then the EIP-712 signature recovered over the only permit the service accepts, the
 * network's chain id and the token's domain, the router as spender, the swap's exact amount, the
 * owner's current nonce and the deadline, and it must be the wallet's. One signed for another
 * chain, token, spender, amount, nonce or deadline recovers another address: 400, nothing is
 * sent. Reads: the support (once per token) and `nonces(owner)`.
 */
export async function checkPermit(parameters: CheckPermitParameters): Promise<void> {
  const { network, owner, token, spender, value, deadline, signature, now, path, lookup } =
    parameters
  const refuse = (message: string): never => {
    throw new BadRequest('the permit is not valid; nothing was sent', [{ path, message }])
  }
  if (deadline < now) refuse(`expired at ${deadline}, before ${now}`)
  if (deadline > now + BigInt(MAX_PERMIT_DEADLINE_SECONDS)) {
    refuse(`runs until ${deadline}, more than ${MAX_PERMIT_DEADLINE_SECONDS} s from ${now}`)
  }
  const support = await lookup(network, token, spender)
  if (!support.supported) refuse(`${getAddress(token)} has no EIP-2612 permit on ${network}`)
  const nonce = await readPermitNonce(network, token, owner)
  const domain = permitDomainOf(
    network,
    token,
    support as Extract<typeof support, { supported: true }>,
  )
  const message = { owner, spender, value, nonce, deadline }
  const signer = await recoverTypedDataAddress({
    ...permitTypedData(domain, message),
    signature,
  }).catch(() => undefined)
  if (!signer || !isAddressEqual(signer, owner)) {
    refuse(
      `is not the wallet's permit of exactly ${value} base units of ${getAddress(token)} for the router ${getAddress(spender)} on chain ${domain.chainId}, nonce ${nonce}, deadline ${deadline}: it was signed for another chain, token, spender, amount, nonce or deadline`,
    )
  }
}
