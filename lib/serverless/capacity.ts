// The gateway's throttles are capacity guards (DECISIONS §10.4), never the limit one client's
// flood reaches for everyone: per-client limits live in the handlers (lib/http/clientLimit.ts,
// lib/http/rpcBudget.ts). These are the peaks the deployment is sized for, an assumption stated
// in docs/operations.md ("Capacity guards"), and how far above them serverless.yml's stage and
// route throttles sit; tests/serverless/prodStage.test.ts fails when a throttle is below that.

/**
 * Requests a second across all clients at the busiest second this deployment is sized for: half
 * a million wallet sign-ins a day (a nonce and a login each; 5.8 a second on average) at eight
 * times the average in the busiest hour; account logins and registrations (price history only)
 * a tenth of that; the whole stage ten times the sign-ins (quotes, balances, history).
 */
export const PEAK_REQUESTS_PER_SECOND = {
  stage: 500,
  routes: {
    'GET /api/v1/auth/nonce/{address}': 50,
    'POST /api/v1/auth/login': 50,
    'POST /api/v1/account/login': 5,
    'POST /api/v1/account/register': 2,
  },
} as const

/**
 * WebSocket API messages a second across all connections at the busiest second (connects,
 * subscribes, unsubscribes, resumes; pushes are the fan-out's posts, not messages): a fifth of the
 * busiest second's sign-ins opening a connection and sending its two subscribes.
 */
export const PEAK_WEBSOCKET_MESSAGES_PER_SECOND = 30

/** A gateway throttle is at least this many times its peak (and its burst at least its rate). */
export const THROTTLE_HEADROOM = 10
