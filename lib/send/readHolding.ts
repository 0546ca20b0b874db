import { getBalance } from 'viem/actions'
import { type Address, erc20Abi, maxUint256 } from 'viem'
import { readUntrusted } from '../chain/callBudget'
import { publicClient } from '../chain/clients'
import type { NetworkName } from '../networkNames'
import { BadRequest } from '../errors'
import { isNative } from '../constants'
import { beforeBroadcast } from './sendError'

export interface Holding {
  balance: bigint
  /** What `spender` may take; unlimited for the native coin, which is sent as value. */
  allowance: bigint
  decimals: number
}

export interface ReadHoldingParameters {
  network: NetworkName
  owner: Address
  /** A token address or the native sentinel. */
  token: Address
  spender?: Address
}

/** The owner's balance of a token, its allowance to `spender` and the token's decimals. */
export async function readHolding({
  network,
  owner,
  token,
  spender,
}: ReadHoldingParameters): Promise<Holding> {
  const client = publicClient(network)
  const read = <Result>(call: () => Promise<Result>) =>
    beforeBroadcast(network, `read of token ${token}`, call)
  if (isNative(token)) {
    const balance = await read(() => getBalance(client, { address: owner }))
    return { balance, allowance: maxUint256, decimals: 18 }
  }
  const contract = { address: token, abi: erc20Abi } as const
  const [balance, allowance, decimals] = await Promise.all([
    read(() => readUntrusted(client, { ...contract, functionName: 'balanceOf', args: [owner] })),
    spender
      ? read(() =>
          readUntrusted(client, { ...contract, functionName: 'allowance', args: [owner, spender] }),
        )
      : 0n,
    readDecimals(network, token),
  ])
  return { balance, allowance, decimals }
}

/** A token's decimals from its contract; 18 for the native coin. */
export async function readDecimals(network: NetworkName, token: Address): Promise<number> {
  if (isNative(token)) return 18
  const client = publicClient(network)
  return beforeBroadcast(network, `read of token ${token}`, () =>
    readUntrusted(client, { address: token, abi: erc20Abi, functionName: 'decimals' }),
  )
}

/**
 * The client states decimals; a wrong figure would move a different amount than meant (10^12
 * times more for 6 against 18), so money-moving routes check it against the contract.
 */
export function assertDecimals(field: string, stated: number, actual: number): void {
  if (stated !== actual) {
    throw new BadRequest('the request is not valid', [
      { path: `body.${field}`, message: `the token has ${actual} decimals, not ${stated}` },
    ])
  }
}
