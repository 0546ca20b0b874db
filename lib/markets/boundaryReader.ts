import { getBlock } from 'viem/actions'
import { archiveClient } from '../chain/archiveClient'
import { isNodeFailure } from '../chain/chainError'
import { type ChainClient, publicClient } from '../chain/clients'
import { type BlockTime, blockSearch, type FindBlockBefore } from '../chain/findBlockBefore'
import { type PoolAccumulators, readAccumulators } from '../chain/readAccumulators'
import type { NetworkName } from '../networkNames'
import { pathPools, type PricingPath } from '../db/priceBoundary'
import { cumulativeAt, pathSpotE18 } from './timeWeightedPrice'

/**
 * How far back a boundary is read from the network's own RPC node rather than its archive node:
 * a full node keeps the state of its last 128 blocks, 25 minutes on Ethereum; the sampler runs
 * every 5 minutes, so each boundary is read well within it (DECISIONS §8.3, forward filling).
 */
export const FORWARD_REACH_MS = 20 * 60_000

/** A path read at a boundary, or why it could not be. */
export type BoundaryRead =
  | { status: 'read'; cumulatives: bigint[] }
  /** Before the chain or the path's pools existed (or a pool had no reserves then). */
  | { status: 'absent' }
  /** Older than FORWARD_REACH_MS with no archive node configured. */
  | { status: 'out-of-reach' }

export interface PresentRead {
  /** The moment read: now, or the head's time if the node is ahead of the clock. */
  at: Date
  cumulatives: bigint[]
  /** The path's price at the head (USD, 18 decimals). */
  spotE18: bigint
}

export interface BoundaryReader {
  network: NetworkName
  /** Whether boundaries older than FORWARD_REACH_MS can be read. */
  hasArchive: boolean
  readAt(path: PricingPath, at: Date): Promise<BoundaryRead>
  /** The path now; its spot weighs a hop's pools by `depths` (the run's sample) where given. */
  readPresent(
    path: PricingPath,
    depths?: ReadonlyMap<string, bigint>,
  ): Promise<PresentRead | undefined>
}

export interface CreateBoundaryReaderParameters {
  network: NetworkName
  /** The run's present. */
  now: Date
  /** The node for the head and recent blocks: the network's client unless given. */
  recent?: ChainClient
  /** The node for older blocks: the configured archive node unless given; null for none. */
  archive?: ChainClient | null
}

/** `read()` once per `key` in `cache`; a failed read is asked again by the next caller. */
function memo<Key, Value>(cache: Map<Key, Promise<Value>>, key: Key, read: () => Promise<Value>) {
  let value = cache.get(key)
  if (!value) {
    value = read()
    // A failed read is asked again by the next caller, not remembered.
    value.catch(() => cache.delete(key))
    cache.set(key, value)
  }
  return value
}

/**
 * The reader's reads of the chain, each made once: the head, the block search of each node, the
 * block before each boundary, and each pool's accumulators at a block.
 */
function memoizedReads(recent: ChainClient, archive: ChainClient | null | undefined) {
  const heads = new Map<'latest', Promise<BlockTime>>()
  const readHead = () =>
    memo(heads, 'latest', async () => {
      const block = await getBlock(recent, { blockTag: 'latest' })
      return { number: block.number, timestamp: block.timestamp }
    })
  const searches = new Map<ChainClient, Promise<FindBlockBefore>>()
  const searchOf = (client: ChainClient) =>
    memo(searches, client, async () => blockSearch(client, await readHead()))
  const blocks = new Map<string, Promise<BlockTime | undefined>>()
  const nodeKey = (client: ChainClient) => (client === archive ? 'a' : 'r')
  const blockBefore = async (client: ChainClient, seconds: bigint) => {
    const search = await searchOf(client)
    return memo(blocks, `${nodeKey(client)}:${seconds}`, () => search(seconds))
  }
  const pools = new Map<string, Promise<PoolAccumulators>>()
  const readPools = (client: ChainClient, path: PricingPath, block: BlockTime) =>
    Promise.all(
      pathPools(path).map((hop) =>
        memo(pools, `${nodeKey(client)}:${hop.pool}@${block.number}`, async () => {
          const [accumulators] = await readAccumulators(client, {
            pools: [{ protocol: hop.protocol, address: hop.pool }],
            block,
          })
          if (!accumulators) throw new Error('no accumulators read')
          return accumulators
        }),
      ),
    )
  return { readHead, blockBefore, readPools }
}

type Reads = ReturnType<typeof memoizedReads>

/** The path's cumulative at `at` from each hop's pool state; undefined if a pool has none. */
function cumulativesOf(path: PricingPath, states: PoolAccumulators[], at: bigint) {
  const values = pathPools(path).map((hop, index) => {
    const state = states[index]
    return state ? cumulativeAt(state, hop.zeroForOne, at) : undefined
  })
  return values.every((value) => value !== undefined) ? values : undefined
}

interface Nodes {
  now: Date
  recent: ChainClient
  archive: ChainClient | null | undefined
  reads: Reads
}

/** The path at the last block before `at`, from the recent node within reach, else the archive. */
async function readAt(
  { now, recent, archive, reads }: Nodes,
  path: PricingPath,
  at: Date,
): Promise<BoundaryRead> {
  // The stablecoin itself: its price is 1, nothing to read.
  if (path.hops.length === 0) return { status: 'read', cumulatives: [] }
  const client = now.getTime() - at.getTime() <= FORWARD_REACH_MS ? recent : archive
  if (!client) return { status: 'out-of-reach' }
  const seconds = BigInt(Math.floor(at.getTime() / 1000))
  const block = await reads.blockBefore(client, seconds)
  if (!block) return { status: 'absent' }
  try {
    const cumulatives = cumulativesOf(path, await reads.readPools(client, path, block), seconds)
    return cumulatives ? { status: 'read', cumulatives } : { status: 'absent' }
  } catch (error) {
    // A node that failed is the run's failure; a pool without code at that block is absent.
    if (isNodeFailure(error)) throw error
    return { status: 'absent' }
  }
}

/** The path at the head, its time now or the head's if the node is ahead of the clock. */
async function readPresent(
  { now, recent, reads }: Nodes,
  path: PricingPath,
  depths?: ReadonlyMap<string, bigint>,
): Promise<PresentRead | undefined> {
  if (path.hops.length === 0) return { at: now, cumulatives: [], spotE18: pathSpotE18(path, []) }
  const latest = await reads.readHead()
  const seconds = BigInt(Math.floor(now.getTime() / 1000))
  const at = seconds > latest.timestamp ? seconds : latest.timestamp
  let states: PoolAccumulators[]
  try {
    states = await reads.readPools(recent, path, latest)
  } catch (error) {
    if (isNodeFailure(error)) throw error
    return undefined
  }
  const cumulatives = cumulativesOf(path, states, at)
  if (!cumulatives) return undefined
  return {
    at: new Date(Number(at) * 1000),
    cumulatives,
    spotE18: pathSpotE18(path, states, depths),
  }
}

/**
 * Reads pricing paths at boundaries for one run on one network. The block before each boundary
 * and each pool's accumulators at a block are read once per reader, however many projects share
 * them (their pools, e.g. WETH/USDC, and the boundaries are the same).
 */
export function createBoundaryReader({
  network,
  now,
  recent = publicClient(network),
  archive = archiveClient(network),
}: CreateBoundaryReaderParameters): BoundaryReader {
  const nodes: Nodes = { now, recent, archive, reads: memoizedReads(recent, archive) }
  return {
    network,
    hasArchive: archive !== null && archive !== undefined,
    readAt: (path, at) => readAt(nodes, path, at),
    readPresent: (path, depths) => readPresent(nodes, path, depths),
  }
}
