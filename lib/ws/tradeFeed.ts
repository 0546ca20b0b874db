// What a change to a trade item (the table's stream: its old and new image) tells a wallet
// (DECISIONS §10.3), read from the items the trade lifecycle already writes: a pending trade
// recorded is `submitted`; moved to `successful` it is `included` in its block and `confirmed`
// (the reconciler settles a trade only once the network's confirmation depth is reached, so both
// are known at once); moved to `failed` it is `included` then `failed`; a trade recorded already
// mined is a deposit as indexed; a trade removed (a deposit of an orphaned block) is `reorged`.

export type TradeImage = Record<string, unknown>

export const TRADE_ITEM_TYPE = 'Trade'

/** The feed of a wallet's trades. */
export function tradesFeed(wallet: string): string {
  return `trades#${wallet.toLowerCase()}`
}

type TradeEventKind = 'submitted' | 'included' | 'confirmed' | 'failed' | 'reorged' | 'deposit'

/** One step of a trade as pushed (schemas/ws.ts wsTradeEventSchema, with `type` and `sequence`). */
export interface TradeEvent {
  topic: 'trades'
  event: TradeEventKind
  hash: string
  network: string
  tradeId: string
  tradeType: string
  wallet: string
  blockNumber?: number
}

function kindsOf(before: TradeImage | undefined, after: TradeImage | undefined): TradeEventKind[] {
  if (!before && after) {
    if (after.status === 'pending') return ['submitted']
    return after.tradeType === 'deposit' ? ['deposit'] : ['included', 'confirmed']
  }
  if (before && !after) return ['reorged']
  if (!before || !after || before.status !== 'pending') return []
  if (after.status === 'successful') return ['included', 'confirmed']
  if (after.status === 'failed') return ['included', 'failed']
  return []
}

/** The events of one change to a trade item, in the order they are pushed (none for others). */
export function tradeEvents(
  before: TradeImage | undefined,
  after: TradeImage | undefined,
): Array<{ feed: string; event: TradeEvent }> {
  const image = after ?? before
  if (!image || image.type !== TRADE_ITEM_TYPE) return []
  const blockNumber = image.blockNumber === undefined ? undefined : Number(image.blockNumber)
  return kindsOf(before, after).map((kind) => ({
    feed: tradesFeed(String(image.wallet)),
    event: {
      topic: 'trades',
      event: kind,
      hash: String(image.hash),
      network: String(image.network),
      tradeId: String(image.id),
      tradeType: String(image.tradeType),
      wallet: String(image.wallet),
      ...(blockNumber !== undefined && kind !== 'submitted' && { blockNumber }),
    },
  }))
}
