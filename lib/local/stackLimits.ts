import { formatDuration } from './processes'

/** The phases of the local stack that each wait for something, each within a limit. */
export type StackPhase = 'dynamo' | 'anvil' | 'deploy' | 'seed' | 'history' | 'bundle' | 'offline'

// Whole seconds, generous enough for a 2-core machine that other work keeps busy: a phase that
// is merely slow comes up; one that outlasts its limit fails naming itself and the limit.
export const DEFAULT_LIMIT_SECONDS: Record<StackPhase, number> = {
  dynamo: 60,
  anvil: 30,
  deploy: 120,
  seed: 120,
  history: 300,
  bundle: 300,
  offline: 240,
}

/** The variable that overrides a phase's limit, in whole seconds: LOCAL_TIMEOUT_OFFLINE_S. */
export function limitVariable(phase: StackPhase): string {
  return `LOCAL_TIMEOUT_${phase.toUpperCase()}_S`
}

export class BadLimitError extends Error {
  override name = 'BadLimitError'
}

/**
 * Each phase's limit in whole milliseconds: the caller's, else its LOCAL_TIMEOUT_<PHASE>_S
 * variable (whole seconds, 1 to 3600), else the default. A variable that is not such a number
 * fails at once, naming it, rather than being ignored.
 */
export function stackLimits(
  given: Partial<Record<StackPhase, number>> = {},
  env: NodeJS.ProcessEnv = process.env,
): Record<StackPhase, number> {
  const phases = Object.keys(DEFAULT_LIMIT_SECONDS) as StackPhase[]
  return Object.fromEntries(
    phases.map((phase) => {
      const own = given[phase]
      if (own !== undefined) return [phase, Math.max(1, Math.ceil(own))]
      const name = limitVariable(phase)
      const raw = env[name]
      if (raw === undefined || raw === '') return [phase, DEFAULT_LIMIT_SECONDS[phase] * 1000]
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 3600) {
        throw new BadLimitError(
          `${name} must be a whole number of seconds from 1 to 3600 (got ${JSON.stringify(raw)}); ` +
            `the default is ${formatDuration(DEFAULT_LIMIT_SECONDS[phase] * 1000)}`,
        )
      }
      return [phase, Number(raw) * 1000]
    }),
  ) as Record<StackPhase, number>
}
