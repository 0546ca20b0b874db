import type { Address } from 'viem'
import type { Project } from '../db/project'

/**
 * Catalog tokens of a network tried as connectors of each price's route, at most: their pools
 * among themselves and with the ends are all read (pairs grow as the square), so the largest
 * market caps first (marketRank), then the unranked in catalog order. 8 give 13 tokens with the
 * ends and 3 base tokens: 78 pairs, ~17 lens calls in one round trip per price.
 */
export const SAMPLER_CONNECTOR_CANDIDATES = 8

/**
 * Each network's connector candidates: ranked projects by rank, then the unranked; one more than
 * SAMPLER_CONNECTOR_CANDIDATES, so that many remain besides the token being priced.
 */
export function connectorsByNetwork(
  catalog: ReadonlyArray<{ project: Project; marketRank: number }>,
): Map<string, Address[]> {
  const rankOf = (rank: number) => (rank > 0 ? rank : Number.MAX_SAFE_INTEGER)
  const ordered = [...catalog].sort((a, b) => rankOf(a.marketRank) - rankOf(b.marketRank))
  const connectors = new Map<string, Address[]>()
  for (const { project } of ordered) {
    const list = connectors.get(project.network) ?? []
    if (list.length < SAMPLER_CONNECTOR_CANDIDATES + 1) list.push(project.address)
    connectors.set(project.network, list)
  }
  return connectors
}

/** A project's candidates: its network's, without itself. */
export function connectorsFor(
  connectors: Map<string, Address[]>,
  project: Pick<Project, 'network' | 'address'>,
): Address[] {
  return (connectors.get(project.network) ?? [])
    .filter((address) => address !== project.address)
    .slice(0, SAMPLER_CONNECTOR_CANDIDATES)
}
