import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { createTestClient, defineChain, http, publicActions, walletActions } from 'viem'
import { type AnvilNode, startAnvil } from '../../lib/local/anvil'
import { findFreePort } from '../../lib/local/findFreePort'
import { freshDevnetState } from '../support/freshDevnets'
import type { NetworkName } from '../../lib/networkNames'

/** Where the run keeps the devnet states it started from, for replaying a failure. */
export const REFERENCE_OUTPUT_DIR = join('.test-output', 'reference')

export type OwnDevnetClient = ReturnType<typeof ownDevnetClient>

export interface OwnDevnet {
  network: NetworkName
  rpcUrl: string
  chainId: number
  client: OwnDevnetClient
  /** The node's process, for its CPU time. */
  pid: number
  stop(): Promise<void>
}

function ownDevnetClient(rpcUrl: string, chainId: number) {
  return createTestClient({
    mode: 'anvil',
    chain: defineChain({
      id: chainId,
      name: `reference copy ${chainId}`,
      nativeCurrency: { name: 'Native', symbol: 'NATIVE', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    }),
    // Thousands of reads per state (a pool's tick bitmap, word by word) go in a few batches.
    transport: http(rpcUrl, { batch: { batchSize: 1000 }, retryCount: 0, timeout: 60_000 }),
    pollingInterval: 20,
  })
    .extend(publicActions)
    .extend(walletActions)
}

/**
 * A devnet of this file's own, started from a copy of the suite's devnet as the stack left it
 * (tests/support/freshDevnets.ts: the same state whatever test files ran first), so its cases are
 * the same in every run and its trades disturb no other test file. The state it started from is kept in
 * REFERENCE_OUTPUT_DIR (`<network>.state.gz`); with REFERENCE_REPLAY_DIR set, it starts from the
 * state kept there instead, to replay a failing run.
 */
export async function copyDevnet({
  network,
  chainId,
}: {
  network: NetworkName
  chainId: number
}): Promise<OwnDevnet> {
  const replayDir = process.env.REFERENCE_REPLAY_DIR
  const gzipped = replayDir
    ? await readFile(join(replayDir, `${network}.state.gz`))
    : await freshDevnetState(network)
  if (!replayDir) {
    await mkdir(REFERENCE_OUTPUT_DIR, { recursive: true })
    await writeFile(join(REFERENCE_OUTPUT_DIR, `${network}.state.gz`), gzipped)
  }
  // anvil_loadState refuses a request this large (tens of MB): the node loads it from a file.
  const folder = await mkdtemp(join(tmpdir(), 'reference-devnet-'))
  const statePath = join(folder, 'state.json')
  let node: AnvilNode
  try {
    await writeFile(statePath, gunzipSync(gzipped))
    node = await startAnvil({
      port: await findFreePort(),
      chainId,
      genesisTimestamp: 'now',
      loadStatePath: statePath,
      readyTimeoutMs: 120_000,
    })
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
  return {
    network,
    rpcUrl: node.rpcUrl,
    chainId,
    client: ownDevnetClient(node.rpcUrl, chainId),
    pid: node.pid,
    stop: () => node.stop(),
  }
}
