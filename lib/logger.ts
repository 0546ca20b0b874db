import { Logger, LogFormatter, LogItem } from '@aws-lambda-powertools/logger'
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types'
import { loadLogConfig } from './config'

// Secrets must never reach a log line. Handlers log only route keys, ids and error names, and this
// formatter is the safety net: it masks values under secret-looking keys and anything shaped like
// a JWT, a private key or a mnemonic, wherever it appears.

const SECRET_KEY = /pass(word)?|secret|private|mnemonic|seed|signature|authorization|token|^key$/i
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g
const HEX_32_BYTES = /\b(0x)?[0-9a-fA-F]{64}\b/g
const REDACTED = '[redacted]'

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.replace(JWT, REDACTED).replace(HEX_32_BYTES, REDACTED)
  }
  if (depth > 6 || value === null || typeof value !== 'object') return value
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redact(value.message, depth + 1),
      stack: redact(value.stack, depth + 1),
    }
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      SECRET_KEY.test(key) ? REDACTED : redact(inner, depth + 1),
    ]),
  )
}

class RedactingFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const base = {
      level: attributes.logLevel,
      message: redact(attributes.message),
      timestamp: this.formatTimestamp(attributes.timestamp),
      service: attributes.serviceName,
      requestId: attributes.lambdaContext?.awsRequestId,
    }
    return new LogItem({ attributes: base }).addAttributes(redact(additional) as LogAttributes)
  }
}

export const logger = new Logger({
  serviceName: 'wallet-backend',
  logLevel: loadLogConfig().logLevel,
  logFormatter: new RedactingFormatter(),
})
