import type { NetworkName } from '../../lib/networkNames'
import { advanceDepositCursor, getDepositCursorState } from '../../lib/db/depositCursor'

/** The deposit indexer's next block on `network`, undefined before its first run. */
export async function depositCursorOf(network: NetworkName): Promise<bigint | undefined> {
  return (await getDepositCursorState(network))?.nextBlock
}

/**
 * Puts the deposit indexer's cursor at `nextBlock` the way a run moves it (conditional on where
 * it was), so the next run indexes from there; asks again if a run moved it meanwhile.
 */
export async function placeDepositCursor(network: NetworkName, nextBlock: bigint): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const from = await depositCursorOf(network)
    if (await advanceDepositCursor(network, { from, to: nextBlock })) return
  }
  throw new Error(`the ${network} deposit cursor kept moving`)
}
