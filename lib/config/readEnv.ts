import type * as z from '../../schemas/zod'

// The one place process.env is read (with lib/config.ts's trace header): each section of the
// configuration (lib/config.ts, lib/config/) is parsed once, on first use, and fails with the
// variable's name, so a function reads only the settings it needs.

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/**
 * A section's variables parsed by its schema: the environment over `defaults` (a network's table
 * entry, lib/config/networkSettings.ts), so a variable set overrides the table's value.
 */
export function parseEnv<Schema extends z.ZodMiniType>(
  schema: Schema,
  defaults: Record<string, string> = {},
): z.infer<Schema> {
  // serverless.yml writes '' for a setting a stage does not use; that means "not set".
  const set = Object.entries(process.env).filter(([, value]) => value !== '' && value !== undefined)
  const parsed = schema.safeParse({ ...defaults, ...Object.fromEntries(set) })
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`)
}

/** The environment's value of one variable, '' read as unset. */
export function readVariable(name: string): string | undefined {
  const value = process.env[name]
  return value === '' ? undefined : value
}

export function memoize<Value>(load: () => Value): () => Value {
  let value: Value | undefined
  return () => (value ??= load())
}
