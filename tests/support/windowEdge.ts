import { setTimeout as sleepUntil } from 'node:timers/promises'
import { windowOf } from '../../lib/db/windowCounter'

/**
 * Returns at once when at least `seconds` remain in the present fixed window of `windowSeconds`
 * (the windows of lib/db/windowCounter.ts), else once the next window has begun. A test that
 * counts attempts in one window calls it first, so its attempts never straddle two windows and
 * find a fresh budget halfway, however slow the machine.
 */
export async function clearOfWindowEnd(windowSeconds: number, seconds: number): Promise<void> {
  const msLeft = windowOf(windowSeconds).endsAt * 1000 - Date.now()
  if (msLeft >= seconds * 1000) return
  // Waits for the boundary itself, then checks the clock agrees.
  await sleepUntil(msLeft + 1)
  while (windowOf(windowSeconds).endsAt * 1000 - Date.now() < seconds * 1000) await sleepUntil(10)
}
