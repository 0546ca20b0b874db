// The error responses of the document, by status: their component names, descriptions and
// examples. Which of them a route answers follows from its definition, its role and its doc
// (lib/openapi/routeDoc.ts).

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
      'Too many requests (or RPC calls) from this client this minute, or too many failed logins from this client for this name or contract wallet; `Retry-After` gives the seconds to wait. Over the stage throttle, the gateway answers.',
    gateway: true,
    example: { message: 'too many requests from this client; try again in 42 s' },
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
