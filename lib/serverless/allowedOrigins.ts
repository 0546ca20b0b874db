// The browser origins a deployed stage allows (CORS), from the deploy setting ALLOWED_ORIGINS:
// comma-separated origins, or `none` for an API no browser app calls. Checked before anything is
// built and made the stage's CORS origins (applyAllowedOrigins). Used by deployRules.ts.

/** What a deployed stage's `provider.httpApi.cors` holds besides its origins (serverless.yml). */
export interface CorsSettings {
  allowedOrigins?: string[]
  allowCredentials?: boolean
  [setting: string]: unknown
}

export const NO_BROWSER_ORIGIN = 'none'

// An origin is a scheme, a host and maybe a port, nothing after: `https://app.example.com`.
// Plain http only for a machine's own address, which no user's browser reaches by mistake.
const ORIGIN = /^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/
const LOCAL_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/

/**
 * The origins a setting names, or an explanation of what is wrong with it (naming the setting):
 * empty, a wildcard (a wildcard with credentials is refused by browsers and API Gateway alike,
 * and a wallet's API names its apps), or anything that is not an origin.
 */
export function parseAllowedOrigins(
  setting: unknown,
  cors: CorsSettings,
): { origins: string[] } | { problem: string } {
  const value = typeof setting === 'string' ? setting.trim() : ''
  if (value === NO_BROWSER_ORIGIN) return { origins: [] }
  const origins = value
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  if (origins.length === 0) {
    return {
      problem: `ALLOWED_ORIGINS is empty: name the app's origins, or "${NO_BROWSER_ORIGIN}"`,
    }
  }
  const wildcard = origins.find((origin) => origin.includes('*'))
  if (wildcard) {
    return {
      problem:
        `ALLOWED_ORIGINS holds the wildcard "${wildcard}"` +
        (cors.allowCredentials ? ' beside allowCredentials' : '') +
        ': name each origin the app is served from, e.g. https://app.example.com',
    }
  }
  const malformed = origins.filter(
    (origin) => !ORIGIN.test(origin.toLowerCase()) && !LOCAL_ORIGIN.test(origin.toLowerCase()),
  )
  if (malformed.length > 0) {
    return {
      problem:
        `ALLOWED_ORIGINS holds ${malformed.map((origin) => `"${origin}"`).join(', ')}, not an ` +
        'origin: https://<host>[:<port>], without a path or a trailing slash',
    }
  }
  return { origins: origins.map((origin) => origin.toLowerCase()) }
}

/**
 * Puts the setting's origins in the HTTP API's CORS settings (no CORS at all for `none`), or
 * answers what is wrong with it, the settings left as they were.
 */
export function applyAllowedOrigins(
  httpApi: { cors?: CorsSettings | boolean } | undefined,
  setting: unknown,
): { httpApi: { cors?: CorsSettings | boolean } } | { problem: string } {
  const cors = typeof httpApi?.cors === 'object' ? httpApi.cors : {}
  const parsed = parseAllowedOrigins(setting, cors)
  if ('problem' in parsed) return parsed
  return {
    httpApi: {
      ...httpApi,
      cors: parsed.origins.length > 0 ? { ...cors, allowedOrigins: parsed.origins } : false,
    },
  }
}
