import { afterEach, beforeEach, vi } from 'vitest'
import { logger } from '../../lib/logger'

type Level = Parameters<typeof logger.setLogLevel>[0]

/**
 * Captures everything the process writes while each test of the calling file runs, with the
 * logger at `level`. Powertools writes through its own Console bound to process.stdout and
 * process.stderr, so the streams are the hook; a spy on `console` would see nothing.
 */
export function captureLogs(level: Level = 'DEBUG'): { text(): string; lines(): string[] } {
  let written: string[] = []
  let previousLevel: Level

  beforeEach(() => {
    written = []
    const capture = (chunk: string | Uint8Array) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString())
      return true
    }
    vi.spyOn(process.stdout, 'write').mockImplementation(capture)
    vi.spyOn(process.stderr, 'write').mockImplementation(capture)
    previousLevel = logger.getLevelName()
    logger.setLogLevel(level)
  })

  afterEach(() => {
    logger.setLogLevel(previousLevel)
    vi.restoreAllMocks()
  })

  return {
    text: () => written.join(''),
    lines: () => written.join('').split('\n').filter(Boolean),
  }
}
