/**
 * The interface's timestamp format, `YYYY-MM-DD HH:MM:SS.ffffff +00:00` in UTC. JavaScript dates
 * carry milliseconds, so the last three of the six fraction digits are always zero.
 */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString() // 2026-11-21T20:44:36.123Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000 +00:00`
}
