import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { findTakenPorts, PortsInUseError, assertPortsFree } from '../../../../lib/local/checkPorts'
import { findFreePort } from '../../../../lib/local/findFreePort'

const servers: Server[] = []

/** A server on loopback that accepts every connection and never answers. */
function silentServer(host = '127.0.0.1'): Promise<number> {
  const server = createServer(() => {})
  servers.push(server)
  return new Promise((resolve) =>
    server.listen({ host, port: 0 }, () => {
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : 0)
    }),
  )
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  )
})

describe('checking ports before the stack starts', () => {
  it('finds a port held by a socket that accepts and never answers', async () => {
    const port = await silentServer()

    const taken = await findTakenPorts([{ port, host: '127.0.0.1', service: 'anvil' }])

    expect(taken).toEqual([{ port, host: '127.0.0.1', service: 'anvil', code: 'EADDRINUSE' }])
  })

  it('counts a loopback holder against a service that binds every interface', async () => {
    const port = await silentServer()

    const taken = await findTakenPorts([{ port, service: 'DynamoDB Local' }])

    expect(taken.map((entry) => entry.port)).toEqual([port])
  })

  it('names each taken port with the service that wants it, and passes free ones', async () => {
    const [held, free] = await Promise.all([silentServer(), findFreePort()])

    const failure = await assertPortsFree([
      { port: free, host: '127.0.0.1', service: 'anvil (ethereum devnet)' },
      { port: held, host: '127.0.0.1', service: 'serverless offline (HTTP API)' },
    ]).catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(PortsInUseError)
    expect((failure as PortsInUseError).message).toBe(
      `port ${held} on 127.0.0.1 is already in use: serverless offline (HTTP API) needs it`,
    )
    await expect(
      assertPortsFree([{ port: free, host: '127.0.0.1', service: 'anvil' }]),
    ).resolves.toBeUndefined()
  })
})
