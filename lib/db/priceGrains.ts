// The price history's storage vocabulary: the grains of its buckets, how a bucket start is
// written into a key, and the change periods kept on a project. The calendar arithmetic and the
// averages belong to the markets domain (lib/markets/priceGrains.ts).

export type PriceGrain = 'hour' | 'day' | 'month'

export const PRICE_GRAINS: readonly PriceGrain[] = ['hour', 'day', 'month']

/** The sortable label of a bucket start: `2026-11-21T20`, `2026-11-21` or `2026-11`. */
export function bucketLabel(grain: PriceGrain, start: Date): string {
  const iso = start.toISOString()
  if (grain === 'month') return iso.slice(0, 7)
  if (grain === 'day') return iso.slice(0, 10)
  return iso.slice(0, 13)
}

/** The price changes a project keeps, each against a bucket's average that far back. */
export const PRICE_CHANGE_PERIODS = ['24h', '7d', '30d', '60d', '90d'] as const
export type PriceChangePeriod = (typeof PRICE_CHANGE_PERIODS)[number]
