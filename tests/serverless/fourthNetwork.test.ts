import '../support/env'
import { execFile } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { createTestClient, erc20Abi, type Hex, http, parseEther, publicActions } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { NATIVE_COIN } from '../../lib/constants'
import { type AnvilNode, startAnvil } from '../../lib/local/anvil'
import { type DexDeployment, planDex } from '../../lib/local/deployDex'
import { findFreePort } from '../../lib/local/findFreePort'
import type { NetworkName } from '../../lib/networkNames'
import { NETWORK_ENTRIES } from '../../lib/networks'
import { functionName, operationPath, operationsOf } from '../../lib/networks/operations'
import { FOURTH_NETWORK, tableWithFourthNetwork } from '../support/fourthNetwork'
import { httpEvent, invoke } from '../support/httpEvent'
import { type PackagedStacks, readPackagedStacks } from '../support/packagedStacks'
import { signInWithWallet } from '../support/walletSignIn'

// Issue 42: adding a network is one table entry plus its devnet deployment. A fourth network,
// L2-shaped and not in the shipped table (tests/support/fourthNetwork.ts), is added to a copy of
// the repository's lib/networks.ts, whose `serverless package` then gives it its functions,
// routes, roles and stack with no file under functions/ added or changed; and to this file's
// own modules (vi.mock below), whose operation handlers (functions/swap/quote.ts,
// functions/swap/swapTokens.ts, told the network by NETWORK) answer a quote and a `{key}` swap
// on its own anvil devnet with the DEX deployed.

vi.mock('../../lib/networks', async (importOriginal) => {
  const { withFourthNetwork } = await import('../support/fourthNetwork')
  return withFourthNetwork(await importOriginal())
})

const SERVERLESS_CLI = 'node_modules/serverless/bin/serverless.js'
const NETWORK = FOURTH_NETWORK as NetworkName
const SERVED = `ethereum,altchain,${FOURTH_NETWORK}`
const capitalized = (name: string) => `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`

interface PackagedFunction {
  handler: string
  network?: string
  environment?: Record<string, string>
  events: Array<{ httpApi?: { method: string; path: string } }>
  access: { table?: string[]; parameters?: string[]; writeKeys?: string[] }
}

/** The repository's files (tracked or new, not ignored) copied, node_modules linked. */
async function copyOfRepository(): Promise<string> {
  const { stdout } = await promisify(execFile)('git', [
    'ls-files',
    '-co',
    '--exclude-standard',
    '-z',
  ])
  const copy = mkdtempSync(join(tmpdir(), 'fourth-network-'))
  for (const file of stdout.split('\0').filter(Boolean)) {
    mkdirSync(dirname(join(copy, file)), { recursive: true })
    cpSync(file, join(copy, file))
  }
  symlinkSync(join(process.cwd(), 'node_modules'), join(copy, 'node_modules'))
  return copy
}

/** Every file under functions/ of a tree, by path, with its content. */
function functionFiles(root: string): Record<string, string> {
  const folder = join(root, 'functions')
  return Object.fromEntries(
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => statSync(join(folder, file)).isFile())
      .map((file) => [file, readFileSync(join(folder, file), 'utf8')]),
  )
}

describe(`a fourth network (${FOURTH_NETWORK}) added to the table`, () => {
  let copy: string
  let functions: Record<string, PackagedFunction>
  let stacks: PackagedStacks

  beforeAll(async () => {
    copy = await copyOfRepository()
    const tablePath = join(copy, 'lib/networks.ts')
    writeFileSync(
      tablePath,
      tableWithFourthNetwork(readFileSync(tablePath, 'utf8'), NETWORK_ENTRIES.base),
    )
    const packageDir = join(copy, '.package')
    await promisify(execFile)(
      process.execPath,
      [SERVERLESS_CLI, 'package', '--stage', 'prod', '--package', packageDir],
      {
        cwd: copy,
        env: {
          ...Object.fromEntries(
            Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')),
          ),
          AWS_EC2_METADATA_DISABLED: 'true',
          SLS_TELEMETRY_DISABLED: '1',
          NETWORKS: SERVED,
          SIWE_DOMAIN: 'app.example.com',
          SIWE_URI: 'https://app.example.com',
          ALARM_TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:wallet-ops',
          ALLOWED_ORIGINS: 'https://app.example.com',
        },
        // Bounds, not measures: a package takes about a minute here, over 5 under heavy load.
        timeout: 840_000,
      },
    )
    functions = (
      JSON.parse(readFileSync(join(packageDir, 'serverless-state.json'), 'utf8')) as {
        service: { functions: Record<string, PackagedFunction> }
      }
    ).service.functions
    stacks = readPackagedStacks(packageDir)
  }, 900_000)

  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true })
  })

  it('packages its functions, routes, roles and stack from its entry alone', () => {
    // The copy differs from the repository by the entry: functions/ is the same, file for file.
    expect(functionFiles(copy)).toEqual(functionFiles('.'))
    expect(readFileSync(join(copy, 'lib/networks.ts'), 'utf8')).toContain(`  ${FOURTH_NETWORK}: {`)

    const operations = operationsOf(NETWORK_ENTRIES[NETWORK].routes)
    const names = operations.map((operation) => functionName(operation.name, NETWORK))

    expect(
      Object.entries(functions)
        .filter(([, fn]) => fn.network === FOURTH_NETWORK)
        .map(([name]) => name)
        .sort(),
    ).toEqual([...names].sort())
    // L2-shaped like base: ethereum's routes, no native swap route of its own.
    expect(names).toHaveLength(6)
    for (const operation of operations) {
      const fn = functions[functionName(operation.name, NETWORK)]
      const ofEthereum = functions[functionName(operation.name, 'ethereum')]
      expect(fn?.handler).toBe(ofEthereum?.handler)
      expect(fn?.events).toEqual([
        expect.objectContaining({
          httpApi: { method: operation.method, path: operationPath(operation.name, NETWORK) },
        }),
      ])
      expect(fn?.environment).toEqual({ NETWORK: FOURTH_NETWORK })
      // Its role: the same table actions and write keys as ethereum's, its own RPC URL.
      expect(fn?.access).toEqual({
        ...ofEthereum?.access,
        parameters: ofEthereum?.access.parameters?.map((parameter) =>
          parameter === 'ethereumRpcUrl' ? `${FOURTH_NETWORK}RpcUrl` : parameter,
        ),
      })
    }
    // Its routes, its stack, and each function's variables and role in it.
    const routeKeys = Object.values(stacks.flattened)
      .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route')
      .map((route) => route.Properties.RouteKey)
    const stack = stacks.nested[`${capitalized(FOURTH_NETWORK)}Stack`]
    for (const operation of operations) {
      const id = capitalized(functionName(operation.name, NETWORK))
      expect(routeKeys).toContain(`${operation.method} ${operationPath(operation.name, NETWORK)}`)
      const lambda = stack?.Resources[`${id}LambdaFunction`]
      expect(lambda?.Properties.Environment).toEqual({
        Variables: expect.objectContaining({
          NETWORK: FOURTH_NETWORK,
          NETWORKS: SERVED,
          [`${FOURTH_NETWORK.toUpperCase()}_RPC_URL_PARAMETER`]: `/wallet-backend/prod/${FOURTH_NETWORK}-rpc-url`,
        }),
      })
      expect(JSON.stringify(stack?.Resources[`${id}LambdaRole`])).toContain(
        `/wallet-backend/prod/${FOURTH_NETWORK}-rpc-url`,
      )
    }
  })
})

describe(`the ${FOURTH_NETWORK} network on its devnet, through the operations' handlers`, () => {
  let node: AnvilNode
  let dex: DexDeployment
  const saved = { ...process.env }

  beforeAll(async () => {
    const entry = NETWORK_ENTRIES[NETWORK]
    node = await startAnvil({
      port: await findFreePort(),
      chainId: entry.devnet.chainId,
      baseFeeWei: entry.devnet.baseFeeWei,
    })
    const plan = await planDex({ rpcUrl: node.rpcUrl, chainId: node.chainId, network: NETWORK })
    await plan.send()
    dex = plan.deployment
    // What `npm start` sets for a devnet (lib/local/localStack.ts): its contracts, deployed anew.
    const prefix = FOURTH_NETWORK.toUpperCase()
    Object.assign(process.env, {
      NETWORKS: SERVED,
      NETWORK: FOURTH_NETWORK,
      [`${prefix}_RPC_URL`]: dex.rpcUrl,
      [`${prefix}_ROUTER`]: dex.router,
      [`${prefix}_FACTORY`]: dex.factory,
      [`${prefix}_WRAPPED_NATIVE`]: dex.wrappedNative,
      [`${prefix}_USD_STABLECOIN`]: dex.usdStablecoin,
      [`${prefix}_V3_FACTORY`]: dex.v3.factory,
      [`${prefix}_V3_POOL_DEPLOYER`]: dex.v3.poolDeployer,
      [`${prefix}_V3_POOL_INIT_CODE_HASH`]: dex.v3.poolInitCodeHash,
      [`${prefix}_V3_FEE_TIERS`]: dex.v3.feeTiers.join(','),
      [`${prefix}_SWAP_ROUTER`]: dex.swapRouter,
      [`${prefix}_CONNECTOR_TOKENS`]: dex.tokens
        .slice(0, 6)
        .map((token) => token.address)
        .join(','),
    })
  }, 300_000)

  afterAll(async () => {
    for (const name of Object.keys(process.env)) {
      if (!(name in saved)) delete process.env[name]
    }
    await node?.stop()
  })

  it('answers a quote and a {key} swap of its native coin for its stablecoin', async () => {
    const { handler: quote } = await import('../../functions/swap/quote')
    const { handler: swapTokens } = await import('../../functions/swap/swapTokens')
    const client = createTestClient({ mode: 'anvil', transport: http(dex.rpcUrl) }).extend(
      publicActions,
    )
    const privateKey = generatePrivateKey()
    const { address } = privateKeyToAccount(privateKey)
    await client.setBalance({ address, value: parseEther('10') })
    const request = {
      amount: '1',
      address0: NATIVE_COIN,
      decimals0: 18,
      address1: dex.usdStablecoin,
      decimals1: 6,
    }

    const quoted = await invoke(
      quote,
      httpEvent({
        routeKey: `GET ${operationPath('quote', NETWORK)}`,
        queryStringParameters: {
          ...request,
          decimals0: String(request.decimals0),
          decimals1: String(request.decimals1),
        },
      }),
    )
    expect(quoted.status).toBe(200)
    const answer = (quoted.body as { result: { quote: number; amountOutMin: string; to: string } })
      .result
    expect(answer.quote).toBeGreaterThan(0)
    // Its own devnet's router: the quote was priced on this network's pools.
    expect(answer.to.toLowerCase()).toBe(dex.swapRouter.toLowerCase())

    const session = await signInWithWallet(privateKey)
    const swapped = await invoke(
      swapTokens,
      httpEvent({
        routeKey: `POST ${operationPath('swapTokens', NETWORK)}`,
        pathParameters: { key: privateKey },
        headers: { authorization: `Bearer ${session.access}` },
        body: request,
      }),
    )
    expect(swapped).toEqual({
      status: 200,
      body: {
        ok: true,
        result: {
          txId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          // Simulated before the broadcast (DECISIONS §10.2): the swap's own, with nothing amiss.
          preview: expect.objectContaining({ issues: [] }),
        },
      },
    })
    const { txId } = (swapped.body as { result: { txId: Hex } }).result
    const receipt = await client.waitForTransactionReceipt({ hash: txId })
    expect(receipt.status).toBe('success')
    // Signed for its own chain (the entry's devnet chain id), mined on its own devnet.
    const sent = await client.getTransaction({ hash: txId })
    expect(sent.chainId).toBe(NETWORK_ENTRIES[NETWORK].devnet.chainId)
    const received = await client.readContract({
      address: dex.usdStablecoin,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    })
    expect(received).toBeGreaterThanOrEqual(BigInt(answer.amountOutMin))
  })
})
