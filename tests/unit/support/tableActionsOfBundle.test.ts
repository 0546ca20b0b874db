import { build } from 'esbuild'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type SourceMapPayload, tableActionsOfBundle } from '../../support/tableActionsOfBundle'

// The template test's derivation of a function's table actions (IAM per path, issue 22), on
// bundles built here as serverless-esbuild builds the functions (minified, tree-shaken), from
// entries that each reach a different function of lib/db/session.ts: the per-file derivation
// gave each of them everything session.ts can do.

const ROOT = resolve(__dirname, '../../..')

async function actionsOf(entry: string): Promise<string[]> {
  const outdir = join(ROOT, '.esbuild-unit')
  const { outputFiles } = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    treeShaking: true,
    sourcemap: 'external',
    sourcesContent: false,
    platform: 'node',
    format: 'cjs',
    // The SDK is not what is measured: only the project's own lines are read.
    packages: 'external',
    outdir,
    write: false,
  })
  const mapFile = outputFiles.find((file) => file.path.endsWith('.map'))
  const map = JSON.parse(mapFile?.text ?? '{}') as SourceMapPayload
  // As lib/serverless/sourceMaps.ts writes them: relative to the repository.
  map.sources = map.sources.map((source) =>
    relative(ROOT, resolve(dirname(mapFile?.path ?? outdir), source)),
  )
  return tableActionsOfBundle(map, ROOT)
}

describe('tableActionsOfBundle', () => {
  it("counts only what the entry's own path reaches in a file that can do more", async () => {
    const read = await actionsOf(
      "import { getSession } from './lib/db/session'\nexport const run = () => getSession('s')",
    )
    const logout = await actionsOf(
      "import { deleteLiveSession } from './lib/db/session'\n" +
        "export const run = () => deleteLiveSession({ sessionId: 's', audience: 'wallet', subject: 'x' })",
    )
    const revoke = await actionsOf(
      "import { revokeFamily } from './lib/db/session'\nexport const run = () => revokeFamily('f')",
    )
    const login = await actionsOf(
      "import { putSession } from './lib/db/session'\nexport const run = putSession",
    )

    expect(read).toEqual(['dynamodb:GetItem'])
    expect(logout).toEqual(['dynamodb:DeleteItem'])
    // A transaction counts the kinds of item its path writes: an Update and a Delete.
    expect(revoke).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'])
    // A login's transaction: the session and its family, and the credential checks it gives
    // back (an Update each).
    expect(login).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem'])
  })

  it('carries no revocation into a route on an access token (the refresh guards are pure)', async () => {
    const accessRoute = await actionsOf(
      "import { accountGuard } from './lib/auth/guard'\nexport const run = accountGuard",
    )
    const refreshRoute = await actionsOf(
      "import { accountRefreshGuard } from './lib/auth/guard'\nexport const run = accountRefreshGuard",
    )

    expect(accessRoute).toEqual(['dynamodb:GetItem'])
    expect(refreshRoute).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'])
  })
})
