import type { DexDeployment } from '../../lib/local/deployDex'
import { copyDevnet, type OwnDevnet } from '../reference/ownDevnet'
import {
  type ExecutedShape,
  executeCase,
  generateCases,
  prepareTrader,
  relativeError,
  shapeTokens,
} from './executeShapes'

/**
 * A devnet copy per network (the suite's fresh state), the service's reads pointed at it: set
 * before the configuration is first read, once per worker.
 */
export async function copyDevnets(
  deployments: readonly DexDeployment[],
): Promise<Map<DexDeployment, OwnDevnet>> {
  const devnets = new Map<DexDeployment, OwnDevnet>()
  for (const deployment of deployments) {
    const devnet = await copyDevnet({ network: deployment.network, chainId: deployment.chainId })
    process.env[`${deployment.network.toUpperCase()}_RPC_URL`] = devnet.rpcUrl
    devnets.set(deployment, devnet)
  }
  return devnets
}

/** `count` generated cases of `seed` executed in order on `devnet`; those no pool fills skipped. */
export async function runShapes(
  devnet: OwnDevnet,
  deployment: DexDeployment,
  count: number,
  seed: number,
): Promise<ExecutedShape[]> {
  const tokens = shapeTokens(deployment)
  await prepareTrader(devnet, deployment, tokens)
  const executed: ExecutedShape[] = []
  for (const shapeCase of generateCases(tokens, count, seed)) {
    const outcome = await executeCase(devnet, deployment, shapeCase)
    if (outcome) executed.push(outcome)
  }
  return executed
}

/** One line per executed swap: its label, estimate, receipt and error. */
export function residualLines(executed: readonly ExecutedShape[]): string[] {
  return executed.map(
    (swap) =>
      `${swap.network} ${swap.label}: estimate ${swap.estimate}, used ${swap.gasUsed}, ${(
        (100 * Number(swap.estimate - swap.gasUsed)) /
        Number(swap.gasUsed)
      ).toFixed(1)} %`,
  )
}

export { relativeError }
