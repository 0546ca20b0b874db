// The errors a route's core can answer, beyond what its definition and its role imply (400 with
// any input, 413 and 415 with a body, 401001..401003 with a token, 429 and 500 always; 503 when
// serverless.yml grants it table actions, 502 when it grants an RPC URL parameter). The generator
// fails on a route that is missing here, so a new route gets a decision rather than an omission.

export type ErrorStatus = 400 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503

export interface ErrorExample {
  message: string
  details?: Array<{ path: string; message: string }>
  requestId?: string
}

export const ERROR_RESPONSES: Record<
  ErrorStatus,
  {
    name: string
    description: string
    /** API Gateway can answer it too, with its own body. */
    gateway?: true
    /** What the service answers, in the envelope beside `code`. */
    example: ErrorExample
  }
> = {
  400: {
    name: 'BadRequest',
    description: 'Malformed JSON, or a field of the wrong type or format; `details` lists each.',
    example: {
      message: 'the request is not valid',
      details: [{ path: 'body.address0', message: 'must be a 0x-prefixed 20-byte address' }],
    },
  },
  404: {
    name: 'NotFound',
    // The gateway's own 404 (no such route) never answers a route the document lists.
    description: 'Unknown project, trade or network id.',
    example: { message: 'no project with this id' },
  },
  409: {
    name: 'Conflict',
    description: 'Already registered, or another request of this wallet is in flight.',
    example: { message: 'this username is already registered' },
  },
  413: {
    name: 'PayloadTooLarge',
    description:
      'The body is over 64 KB; it was not read. Over the gateway limit (10 MB), the gateway answers.',
    gateway: true,
    example: { message: 'the body is larger than 64 KB' },
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not `application/json`.',
    example: { message: 'send the body as application/json' },
  },
  422: {
    name: 'Unprocessable',
    description: 'Valid, but the chain cannot serve it: no liquidity, short balance, a revert.',
    example: { message: 'no liquidity path between these tokens on ethereum' },
  },
  429: {
    name: 'TooManyRequests',
    description:
      'Too many failed logins for this name or address, or too many requests from this client; `Retry-After` gives the seconds to wait. Over the stage throttle, the gateway answers.',
    gateway: true,
    example: { message: 'too many failed logins; try again in 15 minutes' },
  },
  500: {
    name: 'InternalError',
    description:
      'Unexpected; `requestId` names the log entry. A function that crashed or timed out is answered by the gateway.',
    gateway: true,
    example: { message: 'internal error', requestId: 'Wv3kGjBWoAMEYcw=' },
  },
  502: {
    name: 'ChainUnavailable',
    description: 'A chain RPC node failed or timed out.',
    example: { message: 'the ethereum node did not answer; try again shortly' },
  },
  503: {
    name: 'DatabaseUnavailable',
    description: 'The database is unavailable or throttling.',
    example: { message: 'the database is unavailable; try again shortly' },
  },
}

export interface RouteErrors {
  errors: ErrorStatus[]
  /** Can answer 401004 (credentials rejected). */
  credentials?: true
  /** Takes an `Idempotency-Key` header. */
  idempotencyKey?: true
  /** Reads a chain node but answers without it when it fails (no 502). */
  chainOptional?: true
}

// A trade lookup settles a pending trade when the node has its receipt, and answers it pending
// when the node fails (lib/trades/lookupTrade.ts).
const TRADE_LOOKUP: RouteErrors = { errors: [404], chainOptional: true }

const SIGNED: RouteErrors = {
  errors: [409, 422],
  credentials: true,
  idempotencyKey: true,
}

// Signing on the client: prepare reads and refuses what the chain cannot serve; submit also
// refuses a transaction the service would not have prepared (422) and takes an Idempotency-Key.
const PREPARED: RouteErrors = { errors: [422] }
const SUBMITTED: RouteErrors = { errors: [409, 422], idempotencyKey: true }

/** Keyed by the function's name in serverless.yml. */
export const ROUTE_ERRORS: Record<string, RouteErrors> = {
  listNetworks: { errors: [] },
  getNonce: { errors: [] },
  loginWallet: { errors: [429], credentials: true },
  refreshWalletSession: { errors: [] },
  logoutWallet: { errors: [] },
  generateMnemonic: { errors: [] },
  createWallet: { errors: [] },
  recoverWalletFromMnemonic: { errors: [] },
  recoverWalletFromKey: { errors: [] },
  registerAccount: { errors: [409] },
  loginAccount: { errors: [429], credentials: true },
  refreshAccountSession: { errors: [] },
  logoutAccount: { errors: [] },
  listSwapTokens: { errors: [] },
  quoteAltchain: { errors: [422] },
  quoteEthereum: { errors: [422] },
  swapNativeAltchain: SIGNED,
  swapTokensAltchain: SIGNED,
  swapTokensEthereum: SIGNED,
  transferAltchain: SIGNED,
  transferEthereum: SIGNED,
  prepareSwapTokensEthereum: PREPARED,
  prepareSwapTokensAltchain: PREPARED,
  prepareSwapNativeAltchain: PREPARED,
  prepareTransferEthereum: PREPARED,
  prepareTransferAltchain: PREPARED,
  submitEthereum: SUBMITTED,
  submitAltchain: SUBMITTED,
  attachWalletNetworks: { errors: [404] },
  getWalletBalances: { errors: [] },
  listWatchlist: { errors: [] },
  addToWatchlist: { errors: [404] },
  removeFromWatchlist: { errors: [404] },
  getProjectDetails: { errors: [404] },
  getDailyPriceHistory: { errors: [404] },
  getMonthlyPriceHistory: { errors: [404] },
  getYearlyPriceHistory: { errors: [404] },
  listTrades: { errors: [] },
  getTradeByHash: TRADE_LOOKUP,
  getTradeById: TRADE_LOOKUP,
}
