import type { PermitOffer } from '../../lib/clientSigning/preparePermit'
import { type Address, type Hex, parseUnits } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { NetworkName } from '../../lib/networkNames'
import type { Preview } from '../../lib/preview/previewSequence'
import { prepareRoute } from './clientSigningRoutes'
import { deployment, devnet, fundedAccount } from './devnetAccounts'
import type { PreparedTransaction } from './signPrepared'
import { signInWithWallet } from './walletSignIn'

// Permit swaps (DECISIONS §10.2) as a wallet app does them: prepare, sign the offered EIP-712
// permit, prepare again with the signature, sign the one swap, submit.

// The offer as the service types it (prepare's answer); the tests judge the answer's values.
export type { PermitOffer }

export interface PreparedSwapAnswer {
  transactions: PreparedTransaction[]
  permit?: PermitOffer
  preview: Preview
  quote: { amountOutMin: Hex }
}

/** The token each devnet swaps USDC into in these tests. */
export const OUTPUT: Record<'ethereum' | 'altchain', string> = {
  ethereum: 'LINK',
  altchain: 'CAKE',
}

export const permitAbi = [
  {
    type: 'function',
    name: 'nonces',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
] as const

/** A wallet holding `usdc` whole USDC (and gas), signed in. */
export async function permitCaller(network: NetworkName, usdc = '500') {
  const funded = await fundedAccount(network, { tokens: { USDC: parseUnits(usdc, 6) } })
  return { ...funded, access: (await signInWithWallet(funded.privateKey)).access }
}

/** A body swapping `amount` USDC into the network's OUTPUT token. */
export function usdcSwap(network: 'ethereum' | 'altchain', amount: string, into = OUTPUT[network]) {
  const dex = deployment(network)
  const output = [...dex.tokens, ...dex.zoo].find((token) => token.symbol === into)
  if (!output) throw new Error(`no ${into} on ${network}`)
  return {
    amount,
    address0: dex.usdStablecoin,
    decimals0: 6,
    address1: output.address,
    decimals1: output.decimals,
  }
}

/** The prepare answer (200 expected) of `body` on the network's tokens route. */
export async function preparedSwap(
  network: NetworkName,
  access: string,
  body: Record<string, unknown>,
): Promise<PreparedSwapAnswer> {
  const response = await prepareRoute(`swap/tokens/${network}`, access, body)
  if (response.status !== 200) {
    throw new Error(`prepare answered ${response.status}: ${JSON.stringify(response.body)}`)
  }
  return response.body.result as PreparedSwapAnswer
}

/** The offered typed data as viem signs it (quantities as bigint), with `changes` applied. */
export function typedDataOf(
  offer: PermitOffer,
  changes: Partial<{
    chainId: number
    verifyingContract: Address
    spender: Address
    value: bigint
    nonce: bigint
    deadline: bigint
  }> = {},
) {
  const { domain, message } = offer.typedData
  return {
    domain: {
      ...domain,
      chainId: changes.chainId ?? domain.chainId,
      verifyingContract: changes.verifyingContract ?? domain.verifyingContract,
    },
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit' as const,
    message: {
      owner: message.owner,
      spender: changes.spender ?? message.spender,
      value: changes.value ?? BigInt(message.value),
      nonce: changes.nonce ?? BigInt(message.nonce),
      deadline: changes.deadline ?? BigInt(message.deadline),
    },
  }
}

/** Signs the offer as it is (or changed), as the wallet's EIP-712 signature. */
export function signOffer(
  account: PrivateKeyAccount,
  offer: PermitOffer,
  changes: Parameters<typeof typedDataOf>[1] = {},
): Promise<Hex> {
  return account.signTypedData(typedDataOf(offer, changes))
}

/** The transactions a wallet sent in blocks after `from` (the wallet's own count on chain). */
export async function transactionsFrom(network: NetworkName, wallet: Address, from: bigint) {
  const client = devnet(network)
  const last = await client.getBlockNumber()
  const hashes: Hex[] = []
  for (let number = from + 1n; number <= last; number += 1n) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
    for (const transaction of block.transactions) {
      if (transaction.from.toLowerCase() === wallet.toLowerCase()) hashes.push(transaction.hash)
    }
  }
  return hashes
}
