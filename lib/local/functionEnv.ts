import { randomBytes } from 'node:crypto'
import { MAX_CONNECTOR_TOKENS } from '../config'
import type { DexDeployment } from './deployDex'
import { LOCAL_TABLE_NAME } from './localTable'

/** One devnet's settings, as the environment variables of its network (`prefix`). */
function chainEnv(prefix: string, deployment: DexDeployment) {
  return {
    [`${prefix}_CHAIN_ID`]: String(deployment.chainId),
    [`${prefix}_RPC_URL`]: deployment.rpcUrl,
    [`${prefix}_ROUTER`]: deployment.router,
    [`${prefix}_FACTORY`]: deployment.factory,
    [`${prefix}_WRAPPED_NATIVE`]: deployment.wrappedNative,
    [`${prefix}_USD_STABLECOIN`]: deployment.usdStablecoin,
    [`${prefix}_V3_FACTORY`]: deployment.v3.factory,
    [`${prefix}_V3_POOL_DEPLOYER`]: deployment.v3.poolDeployer,
    [`${prefix}_V3_POOL_INIT_CODE_HASH`]: deployment.v3.poolInitCodeHash,
    [`${prefix}_V3_FEE_TIERS`]: deployment.v3.feeTiers.join(','),
    [`${prefix}_SWAP_ROUTER`]: deployment.swapRouter,
    // The demo catalog's tokens connect routes (LINK on ethereum, CAKE on altchain).
    [`${prefix}_CONNECTOR_TOKENS`]: [...deployment.tokens, ...deployment.v3OnlyTokens]
      .slice(0, MAX_CONNECTOR_TOKENS)
      .map((token) => token.address)
      .join(','),
  }
}

/** The local stage's function environment: the table at `endpoint`, and each devnet. */
export function functionEnv(
  endpoint: string,
  deployments: DexDeployment[],
): Record<string, string> {
  return {
    STAGE: 'local',
    AWS_REGION: 'us-east-1',
    TABLE_NAME: LOCAL_TABLE_NAME,
    DYNAMODB_ENDPOINT: endpoint,
    // A fresh secret per start: local tokens never outlive the stack that issued them.
    JWT_SECRET: randomBytes(32).toString('hex'),
    NETWORKS: deployments.map((deployment) => deployment.network).join(','),
    ...Object.fromEntries(
      deployments.flatMap((deployment) =>
        Object.entries(chainEnv(deployment.network.toUpperCase(), deployment)),
      ),
    ),
  }
}
