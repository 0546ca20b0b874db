import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { traceIdOf } from '../../../lib/logger'

// The Lambda fields of every log line (issue 25), under Powertools' names. The logger reads the
// function's name and version once, at load, so each case runs a real route in a fresh Node
// process with the environment Lambda gives it, and reads what it wrote to stdout.

const ROOT = resolve(__dirname, '../../..')

/** Loads the mnemonic route as Lambda would, logs once at load, then invokes it twice. */
function twoInvocations(env: Record<string, string>): Array<Record<string, unknown>> {
  const script = join(mkdtempSync(join(tmpdir(), 'logger-')), 'invoke.mts')
  writeFileSync(
    script,
    `
import { handler } from '${ROOT}/functions/wallet/generateMnemonic'
import { logger } from '${ROOT}/lib/logger'
import { httpEvent, lambdaContext } from '${ROOT}/tests/support/httpEvent'

logger.info('loaded')
const event = () => httpEvent({ routeKey: 'GET /api/v1/wallet/mnemonic' })
process.env._X_AMZN_TRACE_ID = 'Root=1-6745a1b2-0a1b2c3d4e5f60718293a4b5;Parent=53995c3f42cd8ad8;Sampled=1'
await handler(event(), lambdaContext())
process.env._X_AMZN_TRACE_ID = 'Root=1-6745a1c9-ffeeddccbbaa998877665544;Parent=8ad853995c3f42cd;Sampled=0'
await handler(event(), lambdaContext())
`,
  )
  const output = execFileSync(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'INFO', ...env },
  })
  return output
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('log lines in Lambda', () => {
  it('carry cold_start, function_name, function_version and the X-Ray trace id', () => {
    const lines = twoInvocations({
      AWS_LAMBDA_FUNCTION_NAME: 'wallet-backend-prod-generateMnemonic',
      AWS_LAMBDA_FUNCTION_VERSION: '42',
    })
    const fields = lines.map(
      ({ message, cold_start, function_name, function_version, ...rest }) => ({
        message,
        cold_start,
        function_name,
        function_version,
        xray_trace_id: rest.xray_trace_id,
      }),
    )

    expect(fields).toEqual([
      // Written while the container loaded: part of the cold start, before any trace.
      {
        message: 'loaded',
        cold_start: true,
        function_name: 'wallet-backend-prod-generateMnemonic',
        function_version: '42',
        xray_trace_id: undefined,
      },
      {
        message: 'request',
        cold_start: true,
        function_name: 'wallet-backend-prod-generateMnemonic',
        function_version: '42',
        xray_trace_id: '1-6745a1b2-0a1b2c3d4e5f60718293a4b5',
      },
      {
        message: 'request',
        cold_start: false,
        function_name: 'wallet-backend-prod-generateMnemonic',
        function_version: '42',
        xray_trace_id: '1-6745a1c9-ffeeddccbbaa998877665544',
      },
    ])
    // The route's own attributes are still there.
    expect(lines[1]).toMatchObject({ routeKey: 'GET /api/v1/wallet/mnemonic', status: 200 })
  })

  it('leave the Lambda fields out where Lambda does not run the code (tests, scripts)', () => {
    const [loaded] = twoInvocations({})

    expect(Object.keys(loaded ?? {}).sort()).toEqual([
      'cold_start',
      'level',
      'message',
      'service',
      'timestamp',
    ])
  })
})

describe('traceIdOf', () => {
  it("takes the header's Root wherever it stands, and nothing from a header without one", () => {
    expect(traceIdOf('Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8')).toBe(
      '1-5759e988-bd862e3fe1be46a994272793',
    )
    expect(traceIdOf('Parent=53995c3f42cd8ad8;Root=1-5759e988-bd862e3fe1be46a9;Sampled=1')).toBe(
      '1-5759e988-bd862e3fe1be46a9',
    )
    expect(traceIdOf('Parent=53995c3f42cd8ad8;Sampled=0')).toBeUndefined()
    expect(traceIdOf(undefined)).toBeUndefined()
  })
})
