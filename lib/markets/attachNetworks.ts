import { NETWORK_NAMES } from '../config'
import { networkId } from '../db/network'
import { attachWalletNetworks } from '../db/attachWalletNetworks'
import { NotFound } from '../errors'
import type { SessionGate } from '../http/sessionGate'

/**
 * Attaches networks to a wallet by id; any unknown id is a 404 and nothing is attached. Network
 * ids are derived from the names, so the ids are matched without a read, and one transaction
 * checks that each network is known, attaches them and checks the caller's session.
 */
export async function attachNetworks(
  wallet: string,
  networkIds: readonly string[],
  session: SessionGate,
): Promise<void> {
  const wanted = [...new Set(networkIds)]
  const named = NETWORK_NAMES.filter((network) => wanted.includes(networkId(network)))
  const unnamed = wanted.filter((id) => !named.some((network) => networkId(network) === id))
  if (unnamed.length > 0 || named.length === 0) {
    // Nothing to write: the session is checked on its own, and an ended one answers first.
    await session.check()
    if (unnamed.length > 0) throw new NotFound(`unknown network id: ${unnamed.join(', ')}`)
    return
  }
  const unknown = await attachWalletNetworks(wallet, named, session)
  if (unknown.length > 0) {
    throw new NotFound(`unknown network id: ${unknown.map(networkId).join(', ')}`)
  }
}
