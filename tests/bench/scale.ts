import { ms, percentile, timeOnce } from './stats'

export interface TradeScaleFigure {
  trades: number
  /** What the route answered as the wallet's count. */
  count: number
  p50: number
  p99: number
  runs: number
  /** Per request. */
  dynamoCalls: number
  queries: number
  itemsRead: number
  /** Writing the wallet's trades (BatchWrite), for scale. */
  writeMs: number
}

export const TRADE_SCALE_SIZES = [100, 1_000, 10_000] as const

// Modules are imported only after the local stack has put its settings in process.env.
async function load<Module>(path: string): Promise<Module> {
  return (await import(path)) as Module
}

/**
 * For a wallet of 100, 1,000 and 10,000 trades: the first page of GET /v1/trades (the default
 * ten, newest first, with the count), warm, with its DynamoDB calls and the items they read.
 */
export async function measureTradeScale(runs: number): Promise<TradeScaleFigure[]> {
  const { db } = await load<typeof import('../../lib/db/client')>('../../lib/db/client')
  const { countRequests } = await load<typeof import('../support/requestCounters')>(
    '../support/requestCounters',
  )
  const { writeTrades } =
    await load<typeof import('../support/bulkTrades')>('../support/bulkTrades')
  const { signInWithWallet } =
    await load<typeof import('../support/walletSignIn')>('../support/walletSignIn')
  const { httpEvent, invoke } =
    await load<typeof import('../support/httpEvent')>('../support/httpEvent')
  const { handler } = await load<typeof import('../../functions/trades/listTrades')>(
    '../../functions/trades/listTrades',
  )

  const figures: TradeScaleFigure[] = []
  for (const size of TRADE_SCALE_SIZES) {
    const wallet = await signInWithWallet()
    const writeMs = await timeOnce(() => writeTrades(wallet.address, size))
    const event = () =>
      httpEvent({
        route: 'listTrades',
        headers: { authorization: `Bearer ${wallet.access}` },
      })
    await invoke(handler, event()) // warm
    const counter = countRequests(db())
    const samples: number[] = []
    let calls = 0
    let queries = 0
    let items = 0
    let count = Number.NaN
    try {
      for (let run = 0; run < runs; run += 1) {
        const started = performance.now()
        const response = await invoke(handler, event())
        samples.push(performance.now() - started)
        const { dynamo } = counter.take()
        calls += dynamo.calls
        queries += dynamo.byCommand.Query ?? 0
        items += dynamo.itemsRead
        count = (response.body.result as { count: number }).count
      }
    } finally {
      counter.stop()
    }
    figures.push({
      trades: size,
      count,
      p50: percentile(samples, 0.5),
      p99: percentile(samples, 0.99),
      runs,
      dynamoCalls: calls / runs,
      queries: queries / runs,
      itemsRead: items / runs,
      writeMs,
    })
  }
  return figures
}

/** The BENCHMARKS.md section of the trade-list scale figures. */
export function tradeScaleSection(figures: TradeScaleFigure[]): string[] {
  return [
    '## A wallet with many trades',
    '',
    'The first page of `GET /v1/trades` (ten newest and the count), warm, in-process, for a ' +
      'wallet of each size. The trades are written with the items `recordTrade` writes ' +
      '(BatchWrite, 25 a call) and the head/tail counters set to the total; the page is one ' +
      '`Query` from the tail counter (Limit 11: the counter and ten trades). Items read include ' +
      'the session item of the guard. Asserted at 50 and 500 trades in ' +
      'tests/functions/trades/tradeListScale.test.ts.',
    '',
    '| trades | count answered | p50 | p99 | runs | DynamoDB calls | Query calls | items read | written in |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.map(
      (figure) =>
        `| ${figure.trades.toLocaleString('en')} | ${figure.count.toLocaleString('en')} | ` +
        `${ms(figure.p50)} | ${ms(figure.p99)} | ${figure.runs} | ${figure.dynamoCalls} | ` +
        `${figure.queries} | ${figure.itemsRead} | ${(figure.writeMs / 1000).toFixed(1)} s |`,
    ),
    '',
  ]
}
