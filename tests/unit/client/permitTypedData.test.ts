import fc from 'fast-check'
import {
  type Address,
  concat,
  encodeAbiParameters,
  getAddress,
  hashTypedData,
  keccak256,
  recoverAddress,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { type PermitOffer, permitTypedData } from '../../../client/walletApi'

// The typed client's permit helper (DECISIONS §10.2): what a wallet signs from a prepare answer's
// `permit` is the EIP-2612 digest OpenZeppelin's ERC20Permit checks, computed here by hand from
// the EIP-712 formula (domain separator, PERMIT_TYPEHASH, 0x1901), not by the helper's library.

const SEED = 712
const DOMAIN_TYPEHASH = keccak256(
  toHex('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
)
const PERMIT_TYPEHASH = keccak256(
  toHex('Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)'),
)

/** ERC20Permit's digest: keccak256(0x1901 ‖ DOMAIN_SEPARATOR ‖ structHash). */
function openZeppelinDigest(offer: PermitOffer) {
  const { domain, message } = offer.typedData
  const separator = keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
      ],
      [
        DOMAIN_TYPEHASH,
        keccak256(toHex(domain.name)),
        keccak256(toHex(domain.version)),
        BigInt(domain.chainId),
        domain.verifyingContract as Address,
      ],
    ),
  )
  const struct = keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'address' },
        { type: 'address' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint256' },
      ],
      [
        PERMIT_TYPEHASH,
        message.owner as Address,
        message.spender as Address,
        BigInt(message.value),
        BigInt(message.nonce),
        BigInt(message.deadline),
      ],
    ),
  )
  return keccak256(concat(['0x1901', separator, struct]))
}

const PERMIT_FIELDS: { name: string; type: string }[] = [
  { name: 'owner', type: 'address' },
  { name: 'spender', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'nonce', type: 'uint256' },
  { name: 'deadline', type: 'uint256' },
]

const DOMAIN_FIELDS: { name: string; type: string }[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]

const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => getAddress(toHex(bytes)))
const uint = (max: bigint) => fc.bigInt({ min: 0n, max }).map(String)

const offers = fc.record({
  typedData: fc.record({
    domain: fc.record({
      name: fc.string({ maxLength: 40 }),
      version: fc.constantFrom('1', '2'),
      chainId: fc.integer({ min: 1, max: 2 ** 31 }),
      verifyingContract: address,
    }),
    types: fc.constant({ EIP712Domain: DOMAIN_FIELDS, Permit: PERMIT_FIELDS }),
    primaryType: fc.constant('Permit' as const),
    message: fc.record({
      owner: address,
      spender: address,
      value: uint(2n ** 256n - 1n),
      nonce: uint(2n ** 64n),
      deadline: uint(2n ** 40n),
    }),
  }),
  deadline: fc.integer({ min: 1, max: 2 ** 40 }),
})

describe('permitTypedData (client/walletApi.ts)', () => {
  it(`is the EIP-2612 digest ERC20Permit checks (seed ${SEED})`, async () => {
    const signer = privateKeyToAccount(`0x${'42'.repeat(32)}`)
    await fc.assert(
      fc.asyncProperty(offers, async (offer) => {
        const typed = permitTypedData(offer)
        const digest = openZeppelinDigest(offer)

        expect(hashTypedData(typed)).toBe(digest)
        const signature = await signer.signTypedData(typed)
        expect(await recoverAddress({ hash: digest, signature })).toBe(signer.address)
      }),
      { seed: SEED, numRuns: 200 },
    )
  })
})
