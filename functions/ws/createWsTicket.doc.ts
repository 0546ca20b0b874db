import type { RouteDoc } from '../../lib/openapi/routeDoc'

export const doc: RouteDoc = {
  description:
    'A single-use ticket for the WebSocket API (valid 30 s): connect to `wss://<ws host>/?ticket=<ticket>` and send `subscribe`, `unsubscribe` or `resume` messages (docs/websocket.md, and the AsyncAPI document docs/asyncapi.yaml). No token ever travels in a URL.',
  errors: [],
  example: { result: { ticket: 'q8Zc3n1Vb2XyL0aQ7wRt5uIo9pAsDfGhJkLzXcVbNm4' } },
}
