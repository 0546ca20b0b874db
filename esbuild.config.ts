// serverless-esbuild loads this file with `require` and calls the export with the serverless
// instance; the CLI runs under tsx so the TypeScript loads as is. Every function is bundled on
// its own (package.individually), minified and tree-shaken.
import type { BuildOptions } from 'esbuild'
import { join } from 'node:path'

interface ServerlessEsbuildOptions extends BuildOptions {
  exclude?: string[]
  packager?: 'npm'
  keepOutputDirectory?: boolean
  outputWorkFolder?: string
  watch?: { pattern: string[]; ignore: string[] }
}

/** The part of the serverless instance read here: which command is running. */
interface ServerlessInstance {
  processedInput?: { commands?: string[] }
}

function esbuildOptions(serverless?: ServerlessInstance): ServerlessEsbuildOptions {
  // `serverless offline` (npm start, the tests) bundles every function at start: unminified and
  // without source maps that takes about two thirds of the time, and the code reads as written.
  const offline = serverless?.processedInput?.commands?.includes('offline') ?? false
  return {
    bundle: true,
    minify: !offline,
    treeShaking: true,
    sourcemap: !offline,
    sourcesContent: false,
    metafile: false,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    // Prefer the ES module builds of dependencies: esbuild tree-shakes them far better.
    mainFields: ['module', 'main'],
    // Lambda gives credentials in the environment; see lib/aws/lambdaCredentials.ts.
    alias: {
      '@aws-sdk/credential-provider-node': join(__dirname, 'lib/aws/lambdaCredentials.ts'),
    },
    legalComments: 'none',
    // Everything is bundled, the AWS SDK included (see README, "Bundles"): nothing to install.
    exclude: [],
    external: [],
    packager: 'npm',
    keepOutputDirectory: true,
    // `serverless offline` builds and serves from a folder of its own, so a `serverless package`
    // run beside it (the template test, an operator packaging while npm start runs) never
    // rewrites the bundles offline is serving. Offline rebuilds when the source changes, not
    // when anything writes a .js or .ts file under the repository (the tests and the bench do).
    // OFFLINE_BUILD_FOLDER gives a second offline (the npm start test, beside the suite's) a
    // folder of its own, so it never rewrites a bundle the first one is loading.
    outputWorkFolder: offline
      ? (process.env.OFFLINE_BUILD_FOLDER ?? '.esbuild-offline')
      : '.esbuild',
    watch: { pattern: ['functions/**/*.ts', 'lib/**/*.ts', 'schemas/**/*.ts'], ignore: [] },
  }
}

export = esbuildOptions
