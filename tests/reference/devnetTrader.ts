import { type Address, encodeFunctionData, type Hex, maxUint256, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ANVIL_DEPLOYER_PRIVATE_KEY } from '../../lib/local/deployDex'
import { tokenAbi } from './chainAbis'
import type { OwnDevnetClient } from './ownDevnet'

// The account that trades on the reference's own devnet copy: anvil's account 0, which deployed
// the tokens and holds what the pools do not. Only ever used on the copy.

export const trader = privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY)

/**
 * Every transaction's gas limit, instead of an estimate: a V2 swap estimated within the second
 * of the pair's last update skips the price accumulators' writes, and mined a second later it
 * makes them and runs out of gas.
 */
const GAS_LIMIT = 2_000_000n

/**
 * Sends a transaction from the trader and fails unless it is mined and succeeded (the error
 * says why, from the same call replayed on the block before).
 */
export async function send(
  client: OwnDevnetClient,
  request: { to: Address; data: Hex; value?: bigint },
): Promise<void> {
  const hash = await client.sendTransaction({
    account: trader,
    chain: client.chain,
    gas: GAS_LIMIT,
    ...request,
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status === 'success') return
  const reason = await client
    .call({ account: trader.address, ...request, blockNumber: receipt.blockNumber - 1n })
    .then(
      () => 'no revert when replayed',
      (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error)),
    )
  throw new Error(
    `transaction ${hash} to ${request.to} (${request.data.slice(0, 10)}, gas ${receipt.gasUsed}) reverted: ${reason}`,
  )
}

export const balanceOf = (client: OwnDevnetClient, token: Address, holder: Address) =>
  client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [holder] })

/** Native coin enough for any wrap the trades need (the copy's own balance, nobody else's). */
export async function fundTrader(client: OwnDevnetClient): Promise<void> {
  await client.setBalance({ address: trader.address, value: parseEther('100000000') })
}

/** Lets `spender` take any amount (reset to 0 first: the USDT-style token insists). */
export async function approveAll(
  client: OwnDevnetClient,
  token: Address,
  spender: Address,
): Promise<void> {
  const allowed = await client.readContract({
    address: token,
    abi: tokenAbi,
    functionName: 'allowance',
    args: [trader.address, spender],
  })
  if (allowed === maxUint256) return
  const approve = (value: bigint) =>
    send(client, {
      to: token,
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [spender, value] }),
    })
  if (allowed !== 0n) await approve(0n)
  await approve(maxUint256)
}
