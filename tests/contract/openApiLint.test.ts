import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { OPENAPI_FILE } from '../../lib/openapi/openApiDocument'

// Linters nobody here wrote, run on the committed document (which the OpenAPI test keeps equal to
// the generated one). Both are local devDependencies, so no network is needed beyond `npm ci`.
function run(bin: string, args: string[]) {
  const { status, stdout, stderr } = spawnSync(`node_modules/.bin/${bin}`, args, {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  })
  return { status, output: `${stdout}\n${stderr}` }
}

describe('the OpenAPI document under third-party linters', () => {
  it('has no Redocly lint error (recommended rules)', () => {
    const { status, output } = run('redocly', ['lint', OPENAPI_FILE])

    expect(output).not.toMatch(/\d+ errors?/)
    expect(status, output).toBe(0)
  }, 120_000)

  it('has no Spectral error under spectral:oas', () => {
    const { status, output } = run('spectral', [
      'lint',
      '--ruleset',
      'tests/contract/spectral-oas.yaml',
      '--fail-severity',
      'error',
      OPENAPI_FILE,
    ])

    expect(output).toMatch(/0 errors/)
    expect(status, output).toBe(0)
  }, 120_000)
})
