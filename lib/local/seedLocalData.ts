import type { NetworkName } from '../config'
import { putNetwork } from '../db/network'
import { upsertProject } from '../db/project'
import type { CatalogEntry } from '../../schemas/catalog'
import type { DexDeployment } from './deployDex'
import { SAMPLE_CATALOG } from './sampleCatalog'

/** The demo catalog as catalog entries, with the addresses of this devnet's own deployments. */
export function sampleCatalogEntries(
  deployments: Record<NetworkName, DexDeployment>,
): CatalogEntry[] {
  return Object.values(deployments).flatMap((deployment) => {
    const { usdStablecoin } = SAMPLE_CATALOG[deployment.network]
    const stablecoin = { ...usdStablecoin, address: deployment.usdStablecoin }
    return [stablecoin, ...deployment.tokens].map((token) => ({
      network: deployment.network,
      address: token.address,
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      industry: token.industry,
      description: `${token.description} (demo data)`,
      circulatingSupply: token.circulatingSupply,
      social: {
        website: token.links.website,
        twitter: token.links.twitter,
        telegram: token.links.telegram,
        discord: token.links.discord,
        github: token.links.github,
      },
      tags: [...token.tags],
      categories: [...token.categories],
    }))
  })
}

/** Seeds the networks and the demo catalog; both writes are upserts, so re-seeding is harmless. */
export async function seedLocalData(
  deployments: Record<NetworkName, DexDeployment>,
): Promise<void> {
  await Promise.all(
    Object.values(deployments).map((deployment) =>
      putNetwork(deployment.network, deployment.chainId),
    ),
  )
  await Promise.all(sampleCatalogEntries(deployments).map((entry) => upsertProject(entry)))
}
