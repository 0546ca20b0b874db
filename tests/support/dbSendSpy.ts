import { onTestFinished, vi } from 'vitest'
import { db } from '../../lib/db/client'

/**
 * A pass-through spy on the table client's `send`, restored when the calling test ends, passed or
 * failed, so a failing count cannot leave the spy on for the tests after it.
 */
export function spyOnDbSend() {
  const send = vi.spyOn(db(), 'send')
  onTestFinished(() => send.mockRestore())
  return send
}
