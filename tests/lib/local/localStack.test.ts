import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { PortsInUseError } from '../../../lib/local/checkPorts'
import { servedDeployment, startLocalStack } from '../../../lib/local/localStack'
import { freeStackPorts } from '../../../lib/local/stackPorts'
import { NotReadyError } from '../../../lib/local/processes'
import { isRunning, recordSpawns } from '../../support/processTree'

const servers: Server[] = []

/** Holds a loopback port with a server that accepts every connection and never answers. */
async function holdSilently(port: number): Promise<void> {
  const server = createServer(() => {})
  servers.push(server)
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port }, resolve))
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  )
})

describe('the local stack', () => {
  // A whole stack, its year of history read before it is ready: minutes on a busy machine.
  it('reports each phase and leaves no process behind once stopped', async () => {
    const environment = { ...process.env }
    const progress: string[] = []
    const stack = await startLocalStack({ ports: 'free', progress: (line) => progress.push(line) })
    Object.assign(process.env, environment)

    expect(stack.pids).toHaveLength(3)
    expect(stack.pids.every(isRunning)).toBe(true)
    expect(progress).toHaveLength(6)
    expect(progress[0]).toMatch(/^ports \d+, \d+, \d+ free$/)
    // The engines come up side by side, so their two lines may come in either order.
    expect(progress.slice(1, 3).sort()).toEqual([
      expect.stringMatching(/^DynamoDB Local on :\d+ … ready \(\d+\.\d s\)$/),
      expect.stringMatching(/^anvil ethereum :\d+ \/ altchain :\d+ … ready \(\d+\.\d s\)$/),
    ])
    expect(progress[3]).toMatch(/^DEX and token zoo deployed \(ethereum, altchain\)/)
    expect(progress[4]).toMatch(/^table seeded \(2 networks, \d+ projects, demo data\) \(/)
    // Filled before the stack is ready unless told otherwise: every project of the catalog priced.
    const projects = Number(/(\d+) projects/.exec(progress[4] ?? '')?.[1])
    expect(progress[5]).toMatch(
      new RegExp(`^price history filled \\(\\d+ buckets; ${projects} prices sampled\\) \\(`),
    )
    expect((await stack.priceHistory).market.sampled).toBe(projects)
    // The functions get each network's V3 DEX and router (issue 26) from its deployment.
    // The default networks only (NETWORKS names them to the functions): no third devnet.
    expect(stack.networks).toEqual(['ethereum', 'altchain'])
    expect(Object.keys(stack.deployments)).toEqual(['ethereum', 'altchain'])
    expect(stack.env.NETWORKS).toBe('ethereum,altchain')
    for (const [prefix, { v3, swapRouter }] of [
      ['ETHEREUM', servedDeployment(stack.deployments, 'ethereum')],
      ['ALTCHAIN', servedDeployment(stack.deployments, 'altchain')],
    ] as const) {
      expect(stack.env).toMatchObject({
        [`${prefix}_V3_FACTORY`]: v3.factory,
        [`${prefix}_V3_POOL_DEPLOYER`]: v3.poolDeployer,
        [`${prefix}_V3_POOL_INIT_CODE_HASH`]: v3.poolInitCodeHash,
        [`${prefix}_V3_FEE_TIERS`]: v3.feeTiers.join(','),
        [`${prefix}_SWAP_ROUTER`]: swapRouter,
      })
    }
    expect(servedDeployment(stack.deployments, 'ethereum').v3.feeTiers).toEqual([500, 3000, 10000])
    expect(servedDeployment(stack.deployments, 'altchain').v3.feeTiers).toEqual([
      100, 500, 2500, 10000,
    ])
    await stack.stop()

    expect(stack.pids.filter(isRunning)).toEqual([])
  }, 300_000)

  it('names a taken port and what wants it before starting any process', async () => {
    const ports = await freeStackPorts()
    await holdSilently(ports.http)
    const spawns = recordSpawns()
    const progress: string[] = []

    const failure = await startLocalStack({
      ports,
      offline: true,
      progress: (line) => progress.push(line),
    }).catch((error: unknown) => error)
    spawns.stop()

    expect(failure).toBeInstanceOf(PortsInUseError)
    expect((failure as Error).message).toBe(
      `port ${ports.http} on 127.0.0.1 is already in use: serverless offline (HTTP API) needs it`,
    )
    expect(spawns.spawned).toEqual([])
    expect(progress).toEqual([])
  })

  it("detects a silent socket on DynamoDB Local's port, which it binds on every interface", async () => {
    const ports = await freeStackPorts()
    await holdSilently(ports.dynamo)
    const spawns = recordSpawns()

    const failure = await startLocalStack({ ports }).catch((error: unknown) => error)
    spawns.stop()

    expect((failure as Error).message).toBe(
      `port ${ports.dynamo} is already in use: DynamoDB Local needs it`,
    )
    expect(spawns.spawned).toEqual([])
  })

  it('fails a phase that outlasts its readiness timeout and stops every engine it started', async () => {
    const spawns = recordSpawns()

    // No JVM answers within a millisecond; the anvils, started alongside, are up by then or soon.
    const failure = await startLocalStack({
      ports: 'free',
      readyTimeoutMs: { dynamo: 1 },
    }).catch((error: unknown) => error)
    spawns.stop()

    expect(failure).toBeInstanceOf(NotReadyError)
    expect((failure as Error).message).toMatch(
      /^DynamoDB Local on :\d+ did not answer within 1 ms$/,
    )
    const spawnedFiles = spawns.spawned.map((child) => child.spawnfile.split('/').pop())
    expect(spawnedFiles.sort()).toEqual(['anvil', 'anvil', 'java'])
    expect(
      spawns.spawned.filter((child) => child.pid !== undefined && isRunning(child.pid)),
    ).toEqual([])
  })
})
