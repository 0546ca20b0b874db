// serverless-esbuild loads this file through esbuild.config.cjs (tsx's require hook, so the CLI
// runs under plain Node) and calls the export with the serverless instance. Every function is
// bundled on its own (package.individually), minified and tree-shaken; `serverless package`
// bundles them all in one esbuild pass (lib/serverless/bundleInOnePass.ts).
import type { BuildOptions } from 'esbuild'
import { join } from 'node:path'

interface ServerlessEsbuildOptions extends BuildOptions {
  exclude?: string[]
  packager?: 'npm'
  keepOutputDirectory?: boolean
  outputWorkFolder?: string
  watch?: { pattern: string[]; ignore: string[] }
}

/** The part of the serverless instance read here: which command is running, and its functions. */
interface ServerlessInstance {
  processedInput?: { commands?: string[] }
  service?: { functions?: Record<string, { skipEsbuild?: boolean }> }
}

function esbuildOptions(serverless?: ServerlessInstance): ServerlessEsbuildOptions {
  // `serverless offline` (npm start, the tests) bundles every function at start: unminified and
  // without source maps that takes about two thirds of the time, and the code reads as written.
  const offline = serverless?.processedInput?.commands?.includes('offline') ?? false
  // npm start and the tests bundle every function beforehand, in one esbuild pass with these
  // same options and into the folder below, while the engines start (lib/local/bundleFunctions.ts;
  // 47 builds one by one took most of the start). serverless-esbuild then builds none itself and
  // offline runs those bundles; it reloads them when that pass rewrites one (watch, below).
  const prebuilt = offline && process.env.OFFLINE_PREBUILT === '1'
  if (prebuilt) {
    for (const fn of Object.values(serverless?.service?.functions ?? {})) fn.skipEsbuild = true
  }
  // Packages run side by side (the tests package several stages at once) each take a folder of
  // their own (PACKAGE_BUILD_FOLDER): in one folder they overwrite each other's bundles.
  const outputWorkFolder = offline
    ? (process.env.OFFLINE_BUILD_FOLDER ?? '.esbuild-offline')
    : (process.env.PACKAGE_BUILD_FOLDER ?? '.esbuild')
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
    // Everything is bundled, the AWS SDK included (see docs/performance.md, "Bundles"): nothing to install.
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
    outputWorkFolder,
    watch: prebuilt
      ? { pattern: [join(outputWorkFolder, '.build', 'functions', '**', '*.js')], ignore: [] }
      : { pattern: ['functions/**/*.ts', 'lib/**/*.ts', 'schemas/**/*.ts'], ignore: [] },
  }
}

export = esbuildOptions
