import { createServer } from 'node:net'

export interface WantedPort {
  port: number
  /** The address the service binds; absent for every interface (DynamoDB Local). */
  host?: string
  /** What wants the port, for the message: `serverless offline (HTTP API)`. */
  service: string
}

export interface TakenPort extends WantedPort {
  /** The bind error: EADDRINUSE, or EACCES for a privileged port. */
  code: string
}

/** One or more ports the stack needs cannot be bound; `taken` names each with its service. */
export class PortsInUseError extends Error {
  override name = 'PortsInUseError'

  constructor(readonly taken: TakenPort[]) {
    super(taken.map(describeTakenPort).join('\n'))
  }
}

export function describeTakenPort({ port, host, service, code }: TakenPort): string {
  const reason = code === 'EADDRINUSE' ? 'is already in use' : `cannot be bound (${code})`
  return `port ${port}${host ? ` on ${host}` : ''} ${reason}: ${service} needs it`
}

/**
 * Binds the address the service itself will bind, and releases it at once. Binding answers
 * within a millisecond whatever holds the port: a server, a socket that accepts and never answers,
 * or one behind a firewall dropping packets. A connect probe could only tell "taken" from "slow"
 * with a timeout, and would miss a holder on another address that still blocks our bind (Linux
 * refuses 127.0.0.1:P while [::]:P or 0.0.0.0:P listens). Node sets SO_REUSEADDR as the services
 * do, so connections of a just-stopped stack in TIME_WAIT do not count as taken.
 */
function bindError({ port, host }: WantedPort): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(undefined)))
  })
}

/** The wanted ports that cannot be bound now, in the order given. */
export async function findTakenPorts(wanted: readonly WantedPort[]): Promise<TakenPort[]> {
  const taken: TakenPort[] = []
  // One at a time, so two entries for the same port never see each other's probe.
  for (const entry of wanted) {
    const code = await bindError(entry)
    if (code !== undefined) taken.push({ ...entry, code })
  }
  return taken
}

/** Throws a PortsInUseError naming every wanted port that cannot be bound. */
export async function assertPortsFree(wanted: readonly WantedPort[]): Promise<void> {
  const taken = await findTakenPorts(wanted)
  if (taken.length > 0) throw new PortsInUseError(taken)
}
