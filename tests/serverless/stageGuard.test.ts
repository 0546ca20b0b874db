import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliEnv, REQUIRED_SETTINGS, SERVERLESS_CLI } from '../support/packagedTemplate'

// Stages that cannot be deployed wrong (lib/serverless/stageGuard.ts, allowedOrigins.ts,
// deployRules.ts): the CLI refuses the local stage, missing settings and bad origins or rollouts.

describe('stages that cannot be deployed wrong', () => {
  const run = (args: string[], env: Record<string, string | undefined>) => {
    try {
      execFileSync(process.execPath, [SERVERLESS_CLI, ...args], {
        env: { ...cliEnv(), ...env },
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 600_000,
      })
      return { exitCode: 0, output: '' }
    } catch (error) {
      const failure = error as { status: number; stdout: string; stderr: string }
      return { exitCode: failure.status, output: failure.stdout + failure.stderr }
    }
  }
  const withoutSettings = {
    SIWE_DOMAIN: undefined,
    SIWE_URI: undefined,
    ALARM_TOPIC_ARN: undefined,
    ALLOWED_ORIGINS: undefined,
  }

  it('loads serverless.yml, its plugin and its esbuild config under plain Node', () => {
    const printed = execFileSync(process.execPath, [SERVERLESS_CLI, 'print', '--stage', 'local'], {
      env: cliEnv(),
      encoding: 'utf8',
      timeout: 600_000,
    })

    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22)
    expect(printed).toMatch(/^service: wallet-backend$/m)
    // The plugin's own function property, accepted by the schema the plugin defines.
    expect(printed).toMatch(/^ {4}access:\n {6}table:\n {8}- Query$/m)
    expect(printed).toContain('config: ./esbuild.config.cjs')
  })

  it('refuses to package without --stage, since the default stage is local', () => {
    const result = run(['package', '--package', mkdtempSync(join(tmpdir(), 'sls-'))], {})

    expect(result.exitCode).not.toBe(0)
    expect(result.output).toContain('Stage "local" runs only under `npm start`')
    expect(result.output).toContain('--stage <name>')
  })

  it('refuses to deploy local, before asking AWS for anything', () => {
    for (const args of [['deploy'], ['deploy', 'function', '-f', 'getNonce']]) {
      const result = run([...args, '--stage', 'local'], REQUIRED_SETTINGS)

      expect(result.exitCode).not.toBe(0)
      expect(result.output).toContain('Stage "local" runs only under `npm start`')
    }
  })

  it('names every required setting a deployed stage lacks', () => {
    const none = run(['package', '--stage', 'prod'], withoutSettings)
    const noUri = run(['package', '--stage', 'prod'], {
      ...REQUIRED_SETTINGS,
      SIWE_URI: undefined,
    })
    const blankDomain = run(['deploy', '--stage', 'prod'], {
      ...REQUIRED_SETTINGS,
      SIWE_DOMAIN: '  ',
    })

    expect(none.output).toContain(
      'Stage "prod" is missing SIWE_DOMAIN, SIWE_URI, ALARM_TOPIC_ARN, ALLOWED_ORIGINS:',
    )
    expect(noUri.output).toContain('Stage "prod" is missing SIWE_URI:')
    expect(blankDomain.output).toContain('Stage "prod" is missing SIWE_DOMAIN:')
    for (const result of [none, noUri, blankDomain]) expect(result.exitCode).not.toBe(0)
    // Three CLI starts: each takes seconds, over 20 on a loaded 2-core machine.
  }, 600_000)

  it('refuses a wildcard or anything but an origin in ALLOWED_ORIGINS, and an unknown rollout', () => {
    const packageWith = (settings: Record<string, string>) =>
      run(['package', '--stage', 'prod', '--package', mkdtempSync(join(tmpdir(), 'sls-'))], {
        ...REQUIRED_SETTINGS,
        ...settings,
      })
    const wildcard = packageWith({ ALLOWED_ORIGINS: 'https://app.example.com,*' })
    const subdomains = packageWith({ ALLOWED_ORIGINS: 'https://*.example.com' })
    const withPath = packageWith({ ALLOWED_ORIGINS: 'https://app.example.com/' })
    const rollout = packageWith({ LAMBDA_ROLLOUT: 'CodeDeployDefault.AllAtOnce' })

    expect(wildcard.output).toContain('Stage "prod": ALLOWED_ORIGINS holds the wildcard "*"')
    expect(subdomains.output).toContain(
      'ALLOWED_ORIGINS holds the wildcard "https://*.example.com"',
    )
    expect(withPath.output).toContain(
      'ALLOWED_ORIGINS holds "https://app.example.com/", not an origin',
    )
    expect(rollout.output).toContain('LAMBDA_ROLLOUT is "CodeDeployDefault.AllAtOnce"')
    for (const result of [wildcard, subdomains, withPath, rollout]) {
      expect(result.exitCode).not.toBe(0)
    }
    // Four CLI starts: a bound, not a measure (about 15 s each under load).
  }, 600_000)
})
