import { randomBytes } from 'node:crypto'
import { type Address, erc20Abi, type Hash, toHex, type TransactionReceipt } from 'viem'
import { inject } from 'vitest'
import type { NetworkName } from '../../lib/networkNames'
import { NATIVE_COIN } from '../../lib/constants'
import type { NewDeposit } from '../../lib/db/depositRecords'
import type { NewTrade } from '../../lib/db/tradeItem'
import { devnet } from './devnetAccounts'
import { randomAddress } from './marketFixtures'

// Real transactions on the devnets for the trade tests. Fresh accounts get the native coin from
// anvil's setBalance and tokens from the deployer (anvil account 0), impersonated: anvil then
// picks the deployer's nonces itself, so other test files sending from it cannot collide with us.

/** The first demo catalog token of a devnet: an 18-or-other-decimals OpenZeppelin ERC-20. */
export function demoToken(network: NetworkName): { address: Address; decimals: number } {
  const [token] = inject('deployments')[network].tokens
  if (!token) throw new Error(`no demo token on ${network}`)
  return { address: token.address, decimals: token.decimals }
}

/** Sends `amount` base units of `token` from the deployer to `to`; waits until mined. */
export async function giveTokens(
  network: NetworkName,
  { token, to, amount }: { token: Address; to: Address; amount: bigint },
): Promise<TransactionReceipt> {
  const client = devnet(network)
  const { deployer } = inject('deployments')[network]
  await client.impersonateAccount({ address: deployer })
  const hash = await client.writeContract({
    account: deployer,
    chain: client.chain,
    address: token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error('funding transfer reverted')
  return receipt
}

/** Waits for a transaction's receipt on a devnet. */
export function receiptOf(network: NetworkName, hash: Hash) {
  return devnet(network).waitForTransactionReceipt({ hash })
}

/** A trade to record (a random hash unless given), native unless overridden. */
export function createMockTrade(overrides: Partial<NewTrade> = {}): NewTrade {
  const wallet = randomAddress()
  return {
    hash: toHex(randomBytes(32)),
    type: 'transfer',
    network: 'ethereum',
    wallet,
    from: wallet,
    to: randomAddress(),
    amount: '1',
    token: NATIVE_COIN,
    isNativeTransfer: true,
    ...overrides,
  }
}

/** A deposit to record (recordDeposits): a token log of a random hash unless overridden. */
export function createMockDeposit(overrides: Partial<NewDeposit> = {}): NewDeposit {
  return {
    hash: toHex(randomBytes(32)),
    network: 'ethereum',
    wallet: randomAddress(),
    from: randomAddress(),
    amount: '1',
    token: randomAddress(),
    place: 0,
    blockNumber: 7n,
    blockHash: toHex(randomBytes(32)),
    gasUsed: 51_000n,
    ...overrides,
  }
}

/** Signs a fresh (or the given) wallet in through the real handlers. */
