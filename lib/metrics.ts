import { loadMetricsConfig } from './config'

// Business metrics as CloudWatch Embedded Metric Format: one JSON line on stdout per event, which
// Lambda sends to CloudWatch Logs and CloudWatch turns into a metric, with no API call and no
// client. Written by hand: Powertools Metrics cost a function more at cold start for the same
// line (BENCHMARKS.md, "Business metrics"). Nothing is written unless METRICS_NAMESPACE is set
// (deployed stages), so the local stack and the tests stay quiet unless they ask.

export type BusinessMetric =
  /** A session started by a wallet signature or a password. */
  | 'SignIn'
  /** A swap broadcast (after its approval, if any). */
  | 'Swap'
  /** Any signed transaction sent: approvals, swaps, transfers. */
  | 'Broadcast'
  /** A request answered 502 because a chain node failed. */
  | 'ChainUnavailable'

/** Low-cardinality facets of a metric; each becomes a dimension beside `Service`. */
export type MetricDimensions = Partial<Record<'Network' | 'Method', string>>

/** The EMF line for one occurrence of `name`. */
function emfLine(
  name: BusinessMetric,
  dimensions: MetricDimensions,
  namespace: string,
  service: string,
  now = Date.now(),
): string {
  const facets = Object.keys(dimensions)
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: namespace,
          // Per service, and per service and facet (e.g. swaps per network).
          Dimensions: facets.length > 0 ? [['Service'], ['Service', ...facets]] : [['Service']],
          Metrics: [{ Name: name, Unit: 'Count' }],
        },
      ],
    },
    Service: service,
    ...dimensions,
    [name]: 1,
  })
}

/** Counts one occurrence of a business metric. */
export function countMetric(name: BusinessMetric, dimensions: MetricDimensions = {}): void {
  const { namespace, service } = loadMetricsConfig()
  if (!namespace) return
  process.stdout.write(`${emfLine(name, dimensions, namespace, service)}\n`)
}
