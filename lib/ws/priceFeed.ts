// The prices topic (DECISIONS §10.3): a project's new price point, read from the table's stream of
// the project item, whose `price` and `priceAt` the sampler sets (lib/markets/recordPrice.ts).
// Anything else changing the item (market metrics, watch counts) pushes nothing.

export const PROJECT_ITEM_TYPE = 'Project'

/** A price point as pushed (schemas/ws.ts wsPriceEventSchema, with `type` and `sequence`). */
export interface PriceEvent {
  topic: 'prices'
  projectId: string
  /** USD per whole token, a decimal string. */
  price: string
  at: string
}

/** The feed of one project's price points. */
export function pricesFeed(projectId: string): string {
  return `prices#${projectId}`
}

export function priceEvents(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): Array<{ feed: string; event: PriceEvent }> {
  const at = after?.priceAt
  if (after?.type !== PROJECT_ITEM_TYPE || typeof at !== 'string') return []
  if (before?.priceAt === at) return []
  const projectId = String(after.id)
  return [
    {
      feed: pricesFeed(projectId),
      event: {
        topic: 'prices',
        projectId,
        price: String(after.price),
        at,
      },
    },
  ]
}
