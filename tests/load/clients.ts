import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { percentile } from '../bench/stats'
import { sendFrom } from '../support/loopbackClient'

// Many clients at once, each from its own loopback address (127.0.0.0/8 is all local on Linux),
// as API Gateway's callers each have their own source address (DECISIONS §9.6): every client
// signs a wallet in again and again, well within its own per-client budgets (nonces 30 and
// logins 20 a minute by default) while all of them together are far over one client's. None may
// be answered 429: no client is limited by another's requests. Then, as the control, one more
// client does the same past its own budgets, and is.

export interface ClientsScenario {
  clients: number
  /** Requests each client sends: one `GET /networks`, then a nonce and a login per sign-in. */
  requestsPerClient: number
}

export interface ClientsFigures {
  requests: number
  clients: number
  /** How many answers of each status, over every client. */
  statuses: Record<number, number>
  /** Each kind of failure (status and message) and how often. */
  failures: Record<string, number>
  /** Clients that got at least one 429. */
  limitedClients: number
  p50: number
  p99: number
  seconds: number
  /** The control: one client past its budgets, its requests and how many were answered 429. */
  control: { requests: number; limited: number }
  /** Warm-up rounds before the measured one. */
  warmUps: number
}

interface Answer {
  status: number
  ms: number
  /** A failure's message (the envelope's error, or the gateway's), for the report. */
  error?: string
}

const MAX_WARM_UPS = 20

/** The loopback address of client `index` (from 127.0.0.11 on, clear of the suite's .1). */
export function clientAddress(index: number): string {
  return `127.0.0.${11 + index}`
}

/** Warm-up clients sign in from addresses of their own (127.0.1.x on), one set per round. */
function warmUpAddress(round: number, index: number): string {
  return `127.0.${round}.${11 + index}`
}

/** One client's journey from `address`: the networks, then `signIns` wallet sign-ins. */
async function journey(apiUrl: string, address: string, signIns: number): Promise<Answer[]> {
  const account = privateKeyToAccount(generatePrivateKey())
  const answers: Answer[] = []
  const send = async (path: string, options: Parameters<typeof sendFrom>[2] = {}) => {
    const startedAt = performance.now()
    const answer = await sendFrom(address, `${apiUrl}/api/v1${path}`, options)
    const body = answer.body as { error?: { message?: string }; message?: string } | undefined
    answers.push({
      status: answer.status,
      ms: performance.now() - startedAt,
      ...(answer.status !== 200 && { error: body?.error?.message ?? body?.message }),
    })
    return answer
  }
  await send('/networks')
  for (let signIn = 0; signIn < signIns; signIn += 1) {
    const nonce = await send(`/auth/nonce/${account.address}`)
    const message = (nonce.body as { result?: { message?: string } }).result?.message
    if (nonce.status !== 200 || message === undefined) continue
    await send('/auth/login', {
      method: 'POST',
      body: { address: account.address, signature: await account.signMessage({ message }) },
    })
  }
  return answers
}

/**
 * `clients` clients at once, each sending `requestsPerClient` requests (an odd number: the
 * networks and whole sign-ins); then the control client.
 */
export async function runClientsScenario(
  apiUrl: string,
  { clients, requestsPerClient }: ClientsScenario,
): Promise<ClientsFigures> {
  const signIns = Math.floor((requestsPerClient - 1) / 2)
  // serverless offline starts a worker per concurrent request of a function, each a cold start
  // (about a second of CPU; ten at load 20, past the functions' 10 s timeout, and a timed-out
  // worker is dropped, so the next request is cold again). Warm-up clients of their own
  // addresses bring the workers up a few at a time, doubling the concurrency once a round is
  // answered 200 whole, up to the measured run's.
  let warmUps = 0
  for (let concurrency = 1; concurrency <= clients;) {
    warmUps += 1
    if (warmUps > MAX_WARM_UPS)
      throw new Error(`the warm-up at ${concurrency} clients never passed`)
    const warm = await Promise.all(
      Array.from({ length: concurrency }, (_, index) =>
        journey(apiUrl, warmUpAddress(warmUps, index), 1),
      ),
    )
    if (!warm.flat().every(({ status }) => status === 200)) continue
    if (concurrency === clients) break
    concurrency = Math.min(clients, concurrency * 2)
  }
  const startedAt = performance.now()
  const perClient = await Promise.all(
    Array.from({ length: clients }, (_, index) => journey(apiUrl, clientAddress(index), signIns)),
  )
  const seconds = (performance.now() - startedAt) / 1000
  const answers = perClient.flat()
  const statuses: Record<number, number> = {}
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1
  const latencies = answers.map(({ ms }) => ms)
  const failures: Record<string, number> = {}
  for (const { status, error } of answers.filter((answer) => answer.status !== 200)) {
    const kind = `${status} ${error ?? ''}`.trim()
    failures[kind] = (failures[kind] ?? 0) + 1
  }
  // Past the default budgets of one client (30 nonces, 20 logins a minute), in one burst.
  const control = await journey(apiUrl, clientAddress(clients), 35)
  return {
    requests: answers.length,
    clients,
    statuses,
    failures,
    limitedClients: perClient.filter((own) => own.some(({ status }) => status === 429)).length,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    seconds,
    control: {
      requests: control.length,
      limited: control.filter(({ status }) => status === 429).length,
    },
    warmUps,
  }
}
