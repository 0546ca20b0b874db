import { loadServedNetworks } from '../config'
import { networkId } from '../db/network'
import { attachWalletNetworks } from '../db/walletNetwork'
import { NotFound } from '../errors'

/**
 * Attaches networks to a wallet by id; an id of no network this stage serves is a 404 and nothing is attached. Network
 * ids are derived from the names, so the ids are matched without a read, and one transaction
 * checks that each network is known and attaches them.
 */
export async function attachNetworks(wallet: string, networkIds: readonly string[]): Promise<void> {
  const wanted = [...new Set(networkIds)]
  const named = loadServedNetworks().filter((network) => wanted.includes(networkId(network)))
  const unnamed = wanted.filter((id) => !named.some((network) => networkId(network) === id))
  if (unnamed.length > 0) throw new NotFound(`unknown network id: ${unnamed.join(', ')}`)
  if (named.length === 0) return
  const unknown = await attachWalletNetworks(wallet, named)
  if (unknown.length > 0) {
    throw new NotFound(`unknown network id: ${unknown.map(networkId).join(', ')}`)
  }
}
