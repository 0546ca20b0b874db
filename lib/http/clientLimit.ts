import type { MiddlewareObj } from '@middy/core'
import { type ClientLimitName, loadClientLimitConfig } from '../config'
import { clientWindowKey } from '../db/keys'
import { countInWindow, windowOf } from '../db/windowCounter'
import { TooManyRequests } from '../errors'
import type { HttpEvent, HttpRequest, HttpResponse } from './types'

const WINDOW_SECONDS = 60

/**
 * A per-client budget (DECISIONS §7.1): one conditional UpdateItem on a fixed one-minute window
 * per source IP, shared by every Lambda instance; over budget is 429 with `Retry-After`. Runs
 * before the body is parsed, so a flood costs one small write per request.
 */
export function clientLimit(name: ClientLimitName): MiddlewareObj<HttpEvent, HttpResponse> {
  return {
    before: async (request: HttpRequest) => {
      const sourceIp = request.event.requestContext?.http?.sourceIp ?? 'unknown'
      const window = windowOf(WINDOW_SECONDS)
      const counted = await countInWindow(clientWindowKey(name, sourceIp, window.startsAt), {
        limit: loadClientLimitConfig()[name],
        endsAt: window.endsAt,
      })
      if (!counted.allowed) {
        throw new TooManyRequests(
          `too many requests from this client; try again in ${counted.retryAfterSeconds} s`,
          counted.retryAfterSeconds,
        )
      }
    },
  }
}
