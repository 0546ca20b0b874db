import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { OPENAPI_FILE } from '../../lib/openapi/openApiDocument'

// Linters nobody here wrote, run on the committed document (which the OpenAPI test keeps equal to
// the generated one). All are local devDependencies, so no network is needed beyond `npm ci`.

const OUTPUT = '.test-output/contract'

function run(bin: string, args: string[]) {
  const { status, stdout, stderr } = spawnSync(`node_modules/.bin/${bin}`, args, {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  })
  return { status, stdout, output: `${stdout}\n${stderr}` }
}

interface SpectralResult {
  code: string
  severity: number
  message: string
  path: string[]
}

/** Spectral's findings under a ruleset, written as JSON (its console text follows the JSON). */
function spectral(ruleset: string, name: string): SpectralResult[] {
  mkdirSync(OUTPUT, { recursive: true })
  const file = `${OUTPUT}/${name}.json`
  const { status, output } = run('spectral', [
    'lint',
    '--ruleset',
    ruleset,
    '--format',
    'json',
    '--output',
    file,
    '--fail-severity',
    'hint',
    OPENAPI_FILE,
  ])
  // 0: nothing found; 1: findings (listed in the file); anything else: Spectral failed.
  expect([0, 1], output).toContain(status)
  return JSON.parse(readFileSync(file, 'utf8')) as SpectralResult[]
}

const SEVERITY = ['error', 'warning', 'info', 'hint']

const describeFinding = ({ code, severity, path, message }: SpectralResult) =>
  `${SEVERITY[severity]} ${code} at ${path.join('.')}: ${message}`

/** Findings per rule, as `rule (severity)` → count. */
function countByRule(results: SpectralResult[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { code, severity } of results) {
    const key = `${code} (${SEVERITY[severity]})`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

// The OWASP findings that stay, each for its reason (docs/api.md lists them too). A
// change in any count fails here, so a new finding is either fixed or added with its reason.
const OWASP_STAYS: Record<string, number> = {
  // No RateLimit headers: the per-IP budgets and the gateway's stage throttle answer 429 with
  // Retry-After instead of announcing quotas on every 2xx and 4xx (62 responses: each route's 200
  // and 401, and the shared error responses once each; every network of the table's routes).
  'owasp:api4:2023-rate-limit (error)': 62,
  // The approval route's `token` query parameter is the ERC-20 contract's address, public data
  // the linter takes for a credential by its name (the interface's name, as on the other routes).
  'owasp:api2:2023-no-credentials-in-url (error)': 1,
  // Public routes by design (sign-in, registration, wallet derivation, reads of public data).
  'owasp:api2:2023-write-restricted (error)': 6,
  'owasp:api2:2023-read-restricted (warning)': 13,
  // A public route never answers 401, so none is documented (17 routes, two checks each).
  'owasp:api8:2023-define-error-responses-401 (warning)': 34,
  // Routes that take no input cannot answer 400 (the WebSocket ticket among them).
  'owasp:api8:2023-define-error-validation (warning)': 12,
  // Free text: passwords (any character), catalog names, symbols, industries, descriptions, tags
  // and categories, prepared transactions' descriptions, the message of each of the 13 error
  // schemas, a 400's detail paths and messages, a 500's request id, and the gateway's own
  // message, and a permit's EIP-712 domain name (the token's own name). Each is bounded where the
  // service enforces a bound.
  'owasp:api4:2023-string-restricted (warning)': 32,
  // The error bodies' messages (13 schemas), a 400's details and a 500's request id are written
  // by the service, not parsed with a bound; details has one entry per problem in a body of at
  // most 64 KB.
  'owasp:api4:2023-string-limit (error)': 16,
  // The error details, the watchlist (one entry per catalog project a wallet watches) and the
  // three price histories (read by time, not by count).
  'owasp:api4:2023-array-limit (error)': 5,
  // CORS is a stage's setting (serverless.yml `httpApiCors`, off on deployed stages until set),
  // answered by the gateway, not a header of each documented response (the two responses with a
  // header: the service's 429 and the gateway's throttle).
  'owasp:api8:2023-define-cors-origin (error)': 2,
}

describe('the OpenAPI document under third-party linters', () => {
  it('has no Redocly error or warning (recommended rules)', () => {
    const { status, stdout, output } = run('redocly', [
      'lint',
      '--config',
      'tests/contract/redocly.yaml',
      '--format',
      'json',
      OPENAPI_FILE,
    ])
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number }
      problems: Array<{ ruleId: string; message: string }>
    }

    expect(report.problems.map(({ ruleId, message }) => `${ruleId}: ${message}`)).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    expect(status, output).toBe(0)
  }, 120_000)

  it('has no Spectral finding of any severity under spectral:oas', () => {
    const results = spectral('tests/contract/spectral-oas.yaml', 'spectral-oas')

    expect(results.map(describeFinding)).toEqual([])
  }, 120_000)

  it('has only the OWASP findings docs/api.md lists, each for its reason', () => {
    const results = spectral('tests/contract/spectral-owasp.yaml', 'spectral-owasp')

    expect(countByRule(results)).toEqual(OWASP_STAYS)
  }, 120_000)
})
