import { BadRequest } from '../../lib/errors'
import { defineWsRoute } from '../../lib/ws/defineWsRoute'

const ACTIONS = 'subscribe, unsubscribe or resume'

// $default: any message whose `action` names no route (or that has none).
export function unknownAction(message: unknown): never {
  const action = (message as { action?: unknown } | null)?.action
  if (typeof action === 'string') {
    throw new BadRequest(`unknown action '${action.slice(0, 40)}': send ${ACTIONS}`)
  }
  throw new BadRequest(`the message names no action: send ${ACTIONS}`)
}

export const handler = defineWsRoute({
  message: undefined,
  run: ({ message }) => unknownAction(message),
})
