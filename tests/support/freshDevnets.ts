import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestClient, hexToBytes, http } from 'viem'
import type { DexDeployment } from '../../lib/local/deployDex'
import type { NetworkName } from '../../lib/networkNames'

// Each suite devnet's state as the stack left it, before any test file traded on it: files that
// need the fresh devnet whatever ran before them (the brute force of tests/reference/) start a
// copy from it, so their cases are the same in every run.
const FRESH_DEVNET_DIR = join('.test-output', 'fresh-devnets')

const statePath = (network: NetworkName) => join(FRESH_DEVNET_DIR, `${network}.state.gz`)

/** Keeps each devnet's state (`anvil_dumpState`, gzipped), once the stack is up. */
export async function keepFreshDevnetStates(
  deployments: Partial<Record<NetworkName, DexDeployment>>,
): Promise<void> {
  await mkdir(FRESH_DEVNET_DIR, { recursive: true })
  await Promise.all(
    Object.entries(deployments).map(async ([network, deployment]) => {
      if (!deployment) return
      const client = createTestClient({
        mode: 'anvil',
        transport: http(deployment.rpcUrl, { timeout: 120_000 }),
      })
      await writeFile(statePath(network as NetworkName), hexToBytes(await client.dumpState()))
    }),
  )
}

/** The kept fresh state of `network`'s devnet; throws if the suite's setup kept none. */
export function freshDevnetState(network: NetworkName): Promise<Buffer> {
  return readFile(statePath(network))
}
