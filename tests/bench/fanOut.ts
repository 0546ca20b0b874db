// `npx tsx tests/bench/fanOut.ts`: the WebSocket fan-out's cost per event (DECISIONS §10.3, issue
// 41), alone (a few minutes), written into BENCHMARKS.md in place of its own section; with
// `--section-only` it only prints it. Figures, not assertions.
//
// The local stack with serverless offline's websocket server and 1,000 real connections (the `ws`
// package): three busy wallets with 1, 10 and 100 connections, the rest of the thousand spread
// over other wallets, each connection subscribed to its wallet's trades. Each event is a trade
// recorded for a busy wallet, handed to the fan-out (lib/ws/fanOut.ts) in this process as the
// stream's record of it, so its DynamoDB commands are counted; its posts go through offline's
// @connections API to the real connections, and the event's time runs until every subscriber
// has it. Measured first with only the busy wallets' 111 connections, then with all 1,000.
import { randomUUID } from 'node:crypto'
import { cpus } from 'node:os'
import { marshall } from '@aws-sdk/util-dynamodb'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import WebSocket from 'ws'
import { db } from '../../lib/db/client'
import { startLocalStack } from '../../lib/local/localStack'
import { logger } from '../../lib/logger'
import { fanOut } from '../../lib/ws/fanOut'
import { issueTicket } from '../../lib/ws/issueTicket'
import { countRequests } from '../support/requestCounters'
import { provenanceNow, section, writeSections } from './benchmarksFile'
import { median } from './stats'

const CONNECTIONS = 1_000
const SUBSCRIBERS = [1, 10, 100] as const
const EVENTS = Number(process.env.BENCH_FAN_OUT_EVENTS ?? 9)
/** Connections opened and subscribed at once. */
const OPENING = 20
const SECTION_TITLE = '## The WebSocket fan-out: cost per event'

interface Subscriber {
  socket: WebSocket
  /** Resolves the next trade event this connection receives. */
  nextEvent(): Promise<void>
}

interface EventFigure {
  subscribers: number
  connections: number
  dynamoCalls: number
  byCommand: string
  posted: number
  ms: number
}

async function connect(wsUrl: string, wallet: `0x${string}`): Promise<Subscriber> {
  const ticket = await issueTicket({ wallet, sessionId: randomUUID() })
  const socket = new WebSocket(`${wsUrl}?ticket=${ticket}`)
  const waiting: Array<{ type: string; resolve: () => void }> = []
  socket.on('message', (data) => {
    const { type } = JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as { type: string }
    const at = waiting.findIndex((waiter) => waiter.type === type)
    if (at >= 0) waiting.splice(at, 1)[0]?.resolve()
  })
  const next = (type: string) =>
    new Promise<void>((resolve) => {
      waiting.push({ type, resolve })
    })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  const subscribed = next('subscribed')
  socket.send(JSON.stringify({ action: 'subscribe', topic: 'trades' }))
  await subscribed
  return { socket, nextEvent: () => next('event') }
}

async function connectAll(wsUrl: string, wallets: `0x${string}`[]): Promise<Subscriber[]> {
  const opened: Subscriber[] = []
  for (let start = 0; start < wallets.length; start += OPENING) {
    const batch = wallets.slice(start, start + OPENING)
    opened.push(...(await Promise.all(batch.map((wallet) => connect(wsUrl, wallet)))))
  }
  return opened
}

/** A trade recorded for `wallet`, as the table's stream carries it: one `submitted` event. */
function submittedRecord(wallet: string) {
  const id = randomUUID()
  return {
    eventName: 'INSERT',
    dynamodb: {
      NewImage: marshall({
        pk: `TRADE#${id}`,
        sk: 'TRADE',
        type: 'Trade',
        id,
        status: 'pending',
        tradeType: 'swap',
        network: 'ethereum',
        wallet,
        hash: `0x${randomUUID().replaceAll('-', '').repeat(2)}`,
      }),
    },
  } as Parameters<typeof fanOut>[0][number]
}

async function measureEvents(
  busy: Map<number, Subscriber[]>,
  wallets: Map<number, string>,
  connections: number,
): Promise<EventFigure[]> {
  const counter = countRequests(db())
  const figures: EventFigure[] = []
  try {
    for (const subscribers of SUBSCRIBERS) {
      const sockets = busy.get(subscribers) ?? []
      for (let event = 0; event < EVENTS; event += 1) {
        const delivered = Promise.all(sockets.map((socket) => socket.nextEvent()))
        counter.take()
        const started = performance.now()
        const result = await fanOut([submittedRecord(String(wallets.get(subscribers)))])
        const { dynamo } = counter.take()
        await delivered
        const ms = performance.now() - started
        const byCommand = Object.entries(dynamo.byCommand)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([command, count]) => `${command} ×${count}`)
          .join(', ')
        figures.push({
          subscribers,
          connections,
          dynamoCalls: dynamo.calls,
          byCommand,
          posted: result.posted,
          ms,
        })
      }
    }
  } finally {
    counter.stop()
  }
  return figures
}

export async function measureFanOut(): Promise<EventFigure[]> {
  logger.setLogLevel('SILENT')
  const stack = await startLocalStack({
    networks: ['ethereum'],
    offline: true,
    ports: 'free',
    // 100 connections of one wallet: over the deployed 10 a wallet.
    functionEnv: { WS_MAX_CONNECTIONS: String(SUBSCRIBERS[2] + 10) },
  })
  try {
    const wsUrl = String(stack.wsUrl)
    // The fan-out runs here, posting through offline's @connections API as the deployed one does.
    process.env.WS_ENDPOINT = wsUrl.replace(/^ws:/, 'http:')
    const walletOf = new Map<number, `0x${string}`>(
      SUBSCRIBERS.map((count) => [count, privateKeyToAddress(generatePrivateKey())]),
    )
    const busy = new Map<number, Subscriber[]>()
    for (const count of SUBSCRIBERS) {
      const wallet = walletOf.get(count) as `0x${string}`
      busy.set(
        count,
        await connectAll(
          wsUrl,
          Array.from({ length: count }, () => wallet),
        ),
      )
    }
    const busyConnections = SUBSCRIBERS.reduce((sum, count) => sum + count, 0)
    const alone = await measureEvents(busy, walletOf, busyConnections)
    // The rest of the thousand: other wallets, 10 connections each, each subscribed.
    const others = Array.from({ length: Math.ceil((CONNECTIONS - busyConnections) / 10) }, () =>
      privateKeyToAddress(generatePrivateKey()),
    )
    const fillers = await connectAll(
      wsUrl,
      Array.from(
        { length: CONNECTIONS - busyConnections },
        (_, index) => others[index % others.length] as `0x${string}`,
      ),
    )
    const crowded = await measureEvents(busy, walletOf, CONNECTIONS)
    for (const subscriber of [...[...busy.values()].flat(), ...fillers]) subscriber.socket.close()
    return [...alone, ...crowded]
  } finally {
    await stack.stop()
  }
}

export function fanOutSection(figures: EventFigure[]): string[] {
  const rows = [...new Set(figures.map((figure) => `${figure.connections}:${figure.subscribers}`))]
  const medians = rows.map((key) => {
    const [connections = 0, subscribers = 0] = key.split(':').map(Number)
    const of = figures.filter(
      (figure) => figure.connections === connections && figure.subscribers === subscribers,
    )
    return {
      connections,
      subscribers,
      dynamoCalls: median(of.map((figure) => figure.dynamoCalls)),
      byCommand: of[0]?.byCommand ?? '',
      posted: median(of.map((figure) => figure.posted)),
      ms: median(of.map((figure) => figure.ms)),
    }
  })
  const at = (connections: number, subscribers: number) =>
    medians.find((row) => row.connections === connections && row.subscribers === subscribers)
  const slope = (field: 'dynamoCalls' | 'ms') => {
    const low = at(CONNECTIONS, SUBSCRIBERS[0])?.[field] ?? 0
    const high = at(CONNECTIONS, SUBSCRIBERS[2])?.[field] ?? 0
    return (high - low) / (SUBSCRIBERS[2] - SUBSCRIBERS[0])
  }
  return [
    SECTION_TITLE,
    '',
    `\`npx tsx tests/bench/fanOut.ts\` (alone; ${cpus().length} CPUs shared). The local stack with ` +
      `serverless offline's websocket server and real \`ws\` connections, each subscribed to its ` +
      `wallet's trades: three busy wallets with ${SUBSCRIBERS.join(', ')} connections, measured ` +
      `with only those open and then with ${CONNECTIONS.toLocaleString('en')} open (the rest on ` +
      `other wallets, 10 each). Each event is a trade recorded for a busy wallet, given to the ` +
      `fan-out (lib/ws/fanOut.ts) as its stream record; its DynamoDB commands counted, its posts ` +
      `made through offline's @connections API, its time until every subscriber has it. Medians ` +
      `of ${EVENTS} events.`,
    '',
    '| connections open | subscribers of the event | DynamoDB commands | of which | posts | time until all have it |',
    '| ---: | ---: | ---: | --- | ---: | ---: |',
    ...medians.map(
      (row) =>
        `| ${row.connections.toLocaleString('en')} | ${row.subscribers} | ${row.dynamoCalls} | ` +
        `${row.byCommand} | ${row.posted} | ${row.ms.toFixed(1)} ms |`,
    ),
    '',
    `Slope with ${CONNECTIONS.toLocaleString('en')} open, from 1 to 100 subscribers: ` +
      `${slope('dynamoCalls').toFixed(2)} DynamoDB commands and ${slope('ms').toFixed(2)} ms ` +
      'more per subscriber; the same event with the thousand open as with the busy wallets alone ' +
      'costs what the rows above show side by side (nothing is read per connection that does not ' +
      'follow the feed).',
    '',
  ]
}

if (process.argv[1]?.endsWith('tests/bench/fanOut.ts')) {
  const at = provenanceNow()
  measureFanOut()
    .then((figures) => {
      const lines = fanOutSection(figures)
      if (!process.argv.includes('--section-only'))
        writeSections([section('ws-fan-out', at, lines)])
      console.log(lines.join('\n'))
      process.exit(0)
    })
    .catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
}
