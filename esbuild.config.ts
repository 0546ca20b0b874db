// serverless-esbuild loads this file with `require` and calls the export with the serverless
// instance; the CLI runs under tsx so the TypeScript loads as is. Every function is bundled on
// its own (package.individually), minified and tree-shaken.
import type { BuildOptions } from 'esbuild'

interface ServerlessEsbuildOptions extends BuildOptions {
  exclude?: string[]
  packager?: 'npm'
  keepOutputDirectory?: boolean
}

function esbuildOptions(): ServerlessEsbuildOptions {
  return {
    bundle: true,
    minify: true,
    treeShaking: true,
    sourcemap: true,
    sourcesContent: false,
    metafile: false,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    // Prefer the ES module builds of dependencies: esbuild tree-shakes them far better.
    mainFields: ['module', 'main'],
    legalComments: 'none',
    // Everything is bundled, the AWS SDK included (see README, "Bundles"): nothing to install.
    exclude: [],
    external: [],
    packager: 'npm',
    keepOutputDirectory: true,
  }
}

export = esbuildOptions
