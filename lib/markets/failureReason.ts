import { AppError } from '../errors'

/**
 * A loggable reason for a failed project in a scheduled run: our own errors carry safe messages;
 * anything else only its name, since a node's error text can hold its URL and so an API key.
 */
export function failureReason(error: unknown): string {
  if (error instanceof AppError) return error.message
  return error instanceof Error ? error.name : 'unknown error'
}
