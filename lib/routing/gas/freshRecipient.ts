import { getBalance } from 'viem/actions'
import { type Address, erc20Abi, isAddressEqual, zeroAddress } from 'viem'
import { readUntrusted } from '../../chain/callBudget'
import { onChain } from '../../chain/chainError'
import { publicClient } from '../../chain/clients'
import type { NetworkName } from '../../networkNames'

export interface RecipientIsFreshParameters {
  network: NetworkName
  /** The zero address: an anonymous quote, whose recipient is not known. */
  recipient: Address
  token: Address
  /** The output is the native coin: the recipient's account rather than a token balance. */
  native: boolean
  /** A price rather than a trade: no gas, nothing to read. */
  ignoreGas?: boolean
}

/**
 * Whether the swap writes the recipient's balance from zero (DECISIONS §10.2's gas the chain
 * charges): a token balance slot from 0 costs 20,000 gas where a non-zero one costs 2,900, and
 * the native coin sent to an account that does not exist costs 25,000 more. One call in the
 * quote's first batch; unknown (an anonymous quote, a token whose `balanceOf` fails): false.
 */
export async function recipientIsFresh({
  network,
  recipient,
  token,
  native,
  ignoreGas,
}: RecipientIsFreshParameters): Promise<boolean> {
  if (ignoreGas || isAddressEqual(recipient, zeroAddress)) return false
  const client = publicClient(network)
  if (native)
    return (await onChain(network, () => getBalance(client, { address: recipient }))) === 0n
  const balance = await readUntrusted(client, {
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [recipient],
  }).catch(() => undefined)
  return balance === 0n
}
