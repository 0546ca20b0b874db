import { getBalance } from 'viem/actions'
import type { Address } from 'viem'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import type { NetworkName } from '../networkNames'
import { listWalletNetworks } from '../db/walletNetwork'

export interface NetworkBalance {
  network: NetworkName
  /** Wei (18 decimals) of the network's native coin. */
  balance: bigint
}

/** The wallet's native balance on each network attached to it, the networks read in parallel. */
export async function readWalletBalances(wallet: Address): Promise<NetworkBalance[]> {
  const networks = await listWalletNetworks(wallet)
  return Promise.all(
    networks.map(async ({ network }) => ({
      network,
      balance: await onChain(network, () => getBalance(publicClient(network), { address: wallet })),
    })),
  )
}
