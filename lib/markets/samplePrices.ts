import { erc20Abi } from 'viem'
import { readContract } from 'viem/actions'
import { publicClient } from '../chain/clients'
import { mapConcurrently } from '../mapConcurrently'
import { translateChainError } from '../chain/chainError'
import { listProjects, type Project } from '../db/project'
import { failureReason } from './failureReason'
import { quoteUsdPrice } from './quoteUsdPrice'
import { recordPrice } from './recordPrice'

export interface SamplePricesParameters {
  /** The sampler's clock: every sample of one run carries its reading. */
  clock?: () => Date
  /** The projects to price; the whole catalog when absent. */
  projects?: readonly Project[]
}

export interface SamplePricesReturnType {
  at: Date
  sampled: Array<{ projectId: string; priceE18: bigint }>
  failed: Array<{ projectId: string; reason: string }>
  durationMs: number
}

const CONCURRENCY = 8

/**
 * The price sampler: prices every project on its network's DEX in USD and records the sample,
 * with the token's total supply read beside the price.
 * A project that fails (no liquidity, node down) is reported and the others carry on.
 */
export async function samplePrices({
  clock = () => new Date(),
  projects,
}: SamplePricesParameters = {}): Promise<SamplePricesReturnType> {
  const started = Date.now()
  const at = clock()
  const catalog = projects ?? (await listProjects())
  const sampled: SamplePricesReturnType['sampled'] = []
  const failed: SamplePricesReturnType['failed'] = []
  await mapConcurrently(catalog, CONCURRENCY, async (project) => {
    try {
      const [priceE18, totalSupply] = await Promise.all([
        quoteUsdPrice(project),
        // Beside the price (DECISIONS §8.3: the supply follows the chain, not only the market
        // sync); a token whose totalSupply fails keeps its last one, which the sync reports.
        readContract(publicClient(project.network), {
          address: project.address,
          abi: erc20Abi,
          functionName: 'totalSupply',
        }).catch(() => undefined),
      ])
      await recordPrice(project.id, { at, priceE18 }, { totalSupply })
      sampled.push({ projectId: project.id, priceE18 })
    } catch (error) {
      const reason = failureReason(translateChainError(error, project.network))
      failed.push({ projectId: project.id, reason })
    }
  })
  return { at, sampled, failed, durationMs: Date.now() - started }
}
