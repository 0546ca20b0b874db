import { createServer } from 'node:net'

/**
 * Asks the OS for a free TCP port on loopback. The port is released before returning, so
 * another process could take it first; callers starting a server should expect that rare race.
 */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen({ host, port: 0 }, () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : undefined
      server.close(() =>
        port === undefined ? reject(new Error('OS returned no port')) : resolve(port),
      )
    })
  })
}
