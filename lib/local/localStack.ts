import {
  CreateTableCommand,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { NetworkName } from '../config'
import { TTL_ATTRIBUTE, tableDefinition } from '../db/tableSchema'
import { type AnvilNode, startAnvil } from './anvil'
import {
  ANVIL_DEPLOYER_PRIVATE_KEY,
  DEVNET_CHAIN_IDS,
  type DexDeployment,
  deployDex,
} from './deployDex'
import { type DynamoLocal, startDynamoLocal } from './dynamoLocal'
import { findFreePort } from './findFreePort'
import { type Offline, startOffline } from './offline'
import { seedLocalData, warmMarketData } from './seedLocalData'

export const LOCAL_TABLE_NAME = 'wallet-backend-local'

export interface LocalStackPorts {
  dynamo: number
  ethereum: number
  altchain: number
  http: number
  lambda: number
}

export const DEFAULT_PORTS: LocalStackPorts = {
  dynamo: 8000,
  ethereum: 8545,
  altchain: 8546,
  http: 3000,
  lambda: 3002,
}

export interface StartLocalStackOptions {
  /** Fixed ports, or 'free' to let the OS choose (tests). */
  ports?: LocalStackPorts | 'free'
  /** Keep DynamoDB data in this folder instead of memory. */
  persistPath?: string
  /** Also run `serverless offline` (routes and schedules). */
  offline?: boolean
  output?: (line: string) => void
}

export interface LocalStack {
  /** The environment the functions run with; also applied to this process. */
  env: Record<string, string>
  apiUrl?: string
  deployments: Record<NetworkName, DexDeployment>
  demoAccount: { address: string; privateKey: string }
  /** The processes it started, for checks that nothing outlives `stop()`. */
  pids: number[]
  stop(): Promise<void>
}

async function choosePorts(ports: StartLocalStackOptions['ports']): Promise<LocalStackPorts> {
  if (ports !== 'free') return ports ?? DEFAULT_PORTS
  const [dynamo, ethereum, altchain, http, lambda] = await Promise.all([
    findFreePort(),
    findFreePort(),
    findFreePort(),
    findFreePort(),
    findFreePort(),
  ])
  return { dynamo, ethereum, altchain, http, lambda }
}

/** Creates the table (with its TTL) at a DynamoDB Local endpoint; an existing one is kept. */
export async function createTable(endpoint: string, tableName = LOCAL_TABLE_NAME): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  })
  try {
    await client.send(new CreateTableCommand(tableDefinition(tableName)))
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    )
  } catch (error) {
    // A persisted database already has the table.
    if (!(error instanceof Error && error.name === 'ResourceInUseException')) throw error
  } finally {
    client.destroy()
  }
}

function functionEnv(
  endpoint: string,
  deployments: Record<NetworkName, DexDeployment>,
): Record<string, string> {
  const chainEnv = (prefix: string, deployment: DexDeployment) => ({
    [`${prefix}_CHAIN_ID`]: String(deployment.chainId),
    [`${prefix}_RPC_URL`]: deployment.rpcUrl,
    [`${prefix}_ROUTER`]: deployment.router,
    [`${prefix}_FACTORY`]: deployment.factory,
    [`${prefix}_WRAPPED_NATIVE`]: deployment.wrappedNative,
    [`${prefix}_USD_STABLECOIN`]: deployment.usdStablecoin,
  })
  return {
    STAGE: 'local',
    AWS_REGION: 'us-east-1',
    TABLE_NAME: LOCAL_TABLE_NAME,
    DYNAMODB_ENDPOINT: endpoint,
    // A fresh secret per start: local tokens never outlive the stack that issued them.
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...chainEnv('ETHEREUM', deployments.ethereum),
    ...chainEnv('ALTCHAIN', deployments.altchain),
  }
}

/**
 * Brings up the whole service on loopback: DynamoDB Local with the table, two anvil devnets with
 * a Uniswap V2 DEX and the demo catalog, the seeded networks and projects, and optionally
 * `serverless offline`. On failure everything already started is stopped again.
 */
export async function startLocalStack(options: StartLocalStackOptions = {}): Promise<LocalStack> {
  const ports = await choosePorts(options.ports)
  const started: Array<DynamoLocal | AnvilNode | Offline> = []
  const stop = async () => {
    await Promise.all(started.splice(0).map((service) => service.stop()))
  }
  const track = <Service extends DynamoLocal | AnvilNode | Offline>(service: Service) => {
    started.push(service)
    return service
  }
  try {
    const [dynamo, ethereumNode, altchainNode] = await Promise.all([
      startDynamoLocal({ port: ports.dynamo, persistPath: options.persistPath }).then(track),
      startAnvil({ port: ports.ethereum, chainId: DEVNET_CHAIN_IDS.ethereum }).then(track),
      startAnvil({ port: ports.altchain, chainId: DEVNET_CHAIN_IDS.altchain }).then(track),
    ])
    const [, ethereum, altchain] = await Promise.all([
      createTable(dynamo.endpoint),
      deployDex({
        rpcUrl: ethereumNode.rpcUrl,
        chainId: ethereumNode.chainId,
        network: 'ethereum',
      }),
      deployDex({
        rpcUrl: altchainNode.rpcUrl,
        chainId: altchainNode.chainId,
        network: 'altchain',
      }),
    ])
    const deployments = { ethereum, altchain }
    const env = functionEnv(dynamo.endpoint, deployments)
    Object.assign(process.env, env)
    await seedLocalData(deployments)
    await warmMarketData()

    let apiUrl: string | undefined
    if (options.offline) {
      const offline = track(
        await startOffline({
          httpPort: ports.http,
          lambdaPort: ports.lambda,
          env,
          output: options.output,
        }),
      )
      apiUrl = offline.apiUrl
    }
    return {
      env,
      apiUrl,
      deployments,
      demoAccount: { address: ethereum.deployer, privateKey: ANVIL_DEPLOYER_PRIVATE_KEY },
      pids: started.map((service) => service.pid),
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

export const DEFAULT_PERSIST_PATH = join('.data', 'dynamodb')
