import type { Address } from 'viem'
import { type PricingPath, putPricingPath } from '../db/priceBoundary'
import type { Project } from '../db/project'
import { choosePricingPath } from './pricingPath'

export interface PricingPathResolverParameters {
  project: Pick<Project, 'id' | 'network' | 'address' | 'decimals'>
  connectors: readonly Address[]
  /**
   * 'keep' (the sampler): the stored path, chosen only when there is none. 'review' (a backfill):
   * chosen again, the stored one kept unless another is far deeper (choosePricingPath).
   */
  policy: 'keep' | 'review'
  /** This path, whatever is stored (a backfill told which pools to read). */
  path?: PricingPath
}

/** The `resolvePath` of a fill: which pools a project's price is read from; a new one is stored. */
export function pricingPathResolver({
  project,
  connectors,
  policy,
  path,
}: PricingPathResolverParameters): (
  stored: PricingPath | undefined,
) => Promise<PricingPath | undefined> {
  return async (stored) => {
    if (!path && stored && policy === 'keep') return stored
    const chosen =
      path ??
      (await choosePricingPath({
        network: project.network,
        token: project.address,
        decimals: project.decimals,
        connectors,
        current: stored,
      }))
    if (chosen && chosen.id !== stored?.id) await putPricingPath(project.id, chosen)
    return chosen
  }
}
