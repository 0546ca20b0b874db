import {
  type Address,
  BaseError,
  domainSeparator,
  encodeFunctionData,
  maxUint256,
  parseAbi,
  parseSignature,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { call } from 'viem/actions'
import { readUntrusted, untrustedCallGas } from '../chain/callBudget'
import { isRevert, onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import { loadChainConfig } from '../config'
import { getPermitSupport, type PermitSupport, putPermitSupport } from '../db/permitSupport'
import { logger } from '../logger'
import type { NetworkName } from '../networkNames'
import { type PermitDomain, permitTypedData } from './permit'

export type { PermitSupport } from '../db/permitSupport'

export const permitTokenAbi = parseAbi([
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function nonces(address owner) view returns (uint256)',
  'function name() view returns (string)',
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
])

/** A container's answers, in front of the table's (a token's code does not change). */
const known = new Map<string, PermitSupport>()

/** How a route learns a token's permit support: lookUpPermitSupport or permitSupportOf. */
export type PermitLookup = (
  network: NetworkName,
  token: Address,
  spender: Address,
) => Promise<PermitSupport>

/**
 * Whether `token` implements EIP-2612 `permit` on `network`, and its EIP-712 domain: from this
 * container's memory, else the table, else probed on chain (probePermit) and kept in memory.
 * Judged by the contract's answers, never by its symbol. For routes whose role writes nothing
 * here (prepare); permitSupportOf keeps a probe's answer in the table too.
 */
export async function lookUpPermitSupport(
  network: NetworkName,
  token: Address,
  spender: Address,
): Promise<PermitSupport> {
  return (await found(network, token, spender)).support
}

/** lookUpPermitSupport, a probed answer kept in the table for every container after this one. */
export async function permitSupportOf(
  network: NetworkName,
  token: Address,
  spender: Address,
): Promise<PermitSupport> {
  const { support, probed } = await found(network, token, spender)
  // The answer stands without the write: the next container probes again.
  if (probed) {
    await putPermitSupport(network, token, support).catch((error: unknown) => {
      logger.warn('permit support not kept', {
        network,
        token,
        error: error instanceof Error ? error.name : 'unknown',
      })
    })
  }
  return support
}

async function found(
  network: NetworkName,
  token: Address,
  spender: Address,
): Promise<{ support: PermitSupport; probed: boolean }> {
  const id = `${network}:${token.toLowerCase()}`
  const remembered = known.get(id) ?? (await getPermitSupport(network, token))
  const support = remembered ?? (await probePermit(network, token, spender))
  known.set(id, support)
  return { support, probed: !remembered }
}

/** The token's domain as the signer's wallet must see it. */
export function permitDomainOf(
  network: NetworkName,
  token: Address,
  support: Extract<PermitSupport, { supported: true }>,
): PermitDomain {
  const { chainId } = loadChainConfig(network)
  return { name: support.name, version: support.version, chainId, verifyingContract: token }
}

/** `nonces(owner)`: the nonce the owner's next permit of `token` must sign. */
export function readPermitNonce(
  network: NetworkName,
  token: Address,
  owner: Address,
): Promise<bigint> {
  return onChain(network, () =>
    readUntrusted(publicClient(network), {
      address: token,
      abi: permitTokenAbi,
      functionName: 'nonces',
      args: [owner],
    }),
  )
}

/** A revert or an answer that does not decode: the contract's answer, not the node's failure. */
function isContractAnswer(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false
  return (
    isRevert(error) ||
    Boolean(
      error.walk(
        (cause) =>
          cause instanceof BaseError &&
          (cause.name === 'ContractFunctionZeroDataError' || cause.name.startsWith('AbiDecoding')),
      ),
    )
  )
}

/** The read's answer, undefined where the contract refused it or answered nothing readable. */
async function answerOf<Result>(read: () => Promise<Result>): Promise<Result | undefined> {
  try {
    return await read()
  } catch (error) {
    if (isContractAnswer(error)) return undefined
    throw error
  }
}

/**
 * Probes `permit` on chain in two round trips: `DOMAIN_SEPARATOR()`, `eip712Domain()` (EIP-5267)
 * and `name()` together, the separator checked against the domain they name (the name, version
 * "1" without EIP-5267, the network's chain id and the token); then a permit signed by a
 * throwaway key for `spender` simulated with eth_call, which must succeed. A token whose
 * fallback answers anything (WETH9's) has no separator to match.
 */
export async function probePermit(
  network: NetworkName,
  token: Address,
  spender: Address,
): Promise<PermitSupport> {
  const client = publicClient(network)
  const contract = { address: token, abi: permitTokenAbi } as const
  const [separator, domain, name] = await onChain(network, () =>
    Promise.all([
      answerOf(() => readUntrusted(client, { ...contract, functionName: 'DOMAIN_SEPARATOR' })),
      answerOf(() => readUntrusted(client, { ...contract, functionName: 'eip712Domain' })),
      answerOf(() => readUntrusted(client, { ...contract, functionName: 'name' })),
    ]),
  )
  const named = domain ? { name: domain[1], version: domain[2] } : name && { name, version: '1' }
  if (!separator || !named) return { supported: false }
  const support = { supported: true as const, ...named }
  const full = permitDomainOf(network, token, support)
  if (domainSeparator({ domain: full }) !== separator) return { supported: false }
  const signer = privateKeyToAccount(generatePrivateKey())
  const message = { owner: signer.address, spender, value: 1n, nonce: 0n, deadline: maxUint256 }
  const { r, s, v, yParity } = parseSignature(
    await signer.signTypedData(permitTypedData(full, message)),
  )
  const data = encodeFunctionData({
    abi: permitTokenAbi,
    functionName: 'permit',
    args: [signer.address, spender, 1n, maxUint256, Number(v ?? 27n + BigInt(yParity)), r, s],
  })
  const simulated = await onChain(network, () =>
    answerOf(() =>
      call(client, { account: signer.address, to: token, data, gas: untrustedCallGas() }),
    ),
  )
  return simulated ? support : { supported: false }
}
