// `serverless package` in one esbuild pass (issue 27): serverless-esbuild builds each function
// on its own, 47 builds that each parse the same node_modules again (52 s of a 58 s package on a
// busy 2-core machine). One build with every function as an entry point parses each module once
// and writes, for each function, the same bundle and map into the same place: esbuild bundles
// each entry point on its own when code splitting is off. Used by deployRules.ts.
import { rm } from 'node:fs/promises'
import { build, type BuildOptions, type BuildResult } from 'esbuild'

// serverless-esbuild's own settings, which it removes before handing the rest to esbuild
// (serverless-esbuild/dist/bundle.js).
const PLUGIN_SETTINGS = new Set([
  'concurrency',
  'zipConcurrency',
  'exclude',
  'nativeZip',
  'packager',
  'packagePath',
  'watch',
  'keepOutputDirectory',
  'packagerOptions',
  'installExtraArgs',
  'outputFileExtension',
  'outputBuildFolder',
  'outputWorkFolder',
  'nodeExternals',
  'skipBuild',
  'skipRebuild',
  'skipBuildExcludeFns',
  'stripEntryResolveExtensions',
  'disposeContext',
])

type PluginBuildOptions = BuildOptions & {
  exclude?: string[]
  outputFileExtension?: string
  skipRebuild?: boolean
}

/** A cached build of serverless-esbuild: its `bundle()` rebuilds a cached context, if any. */
interface CachedBuild {
  context?: { rebuild(): Promise<BuildResult>; dispose(): Promise<void> }
}

/** What is read and set of serverless-esbuild's instance once its `initialize` hook has run. */
interface EsbuildPlugin {
  buildDirPath: string
  buildOptions: PluginBuildOptions
  functionEntries: Array<{ entry: string }>
  buildCache: Record<string, CachedBuild>
}

interface ServerlessWithPlugins {
  pluginManager: { plugins: object[] }
}

function isEsbuildPlugin(candidate: object): candidate is EsbuildPlugin {
  const plugin = candidate as Partial<EsbuildPlugin>
  return (
    typeof plugin.buildDirPath === 'string' &&
    typeof plugin.buildCache === 'object' &&
    typeof plugin.buildOptions === 'object'
  )
}

/**
 * Gives serverless-esbuild, for every function it is about to build, a cached build that is one
 * shared esbuild pass over all of them, with the options and output folder it would use itself;
 * it then zips each function's bundle as usual. A setting that makes its output depend on the
 * one build per function (a metafile per function, plugins, another extension) leaves it be.
 * Returns how many entry points the pass bundles (0 when left to serverless-esbuild).
 */
export function bundleInOnePass(serverless: ServerlessWithPlugins): number {
  const plugin = serverless.pluginManager.plugins.find(isEsbuildPlugin)
  if (!plugin) return 0
  const settings = plugin.buildOptions
  const perFunctionOnly =
    settings.metafile === true ||
    (settings.plugins !== undefined && settings.plugins.length > 0) ||
    (settings.outputFileExtension ?? '.js') !== '.js' ||
    settings.skipRebuild === true
  if (perFunctionOnly) return 0
  const entryPoints = [...new Set(plugin.functionEntries.map(({ entry }) => entry))]
  const esbuildOptions = Object.fromEntries(
    Object.entries(settings).filter(([name]) => !PLUGIN_SETTINGS.has(name)),
  ) as BuildOptions
  const exclude = settings.exclude ?? []
  let pass: Promise<BuildResult> | undefined
  const rebuild = () =>
    // The folder is kept between packages (keepOutputDirectory), and serverless-esbuild zips every
    // file in it but other functions' bundles: a bundle of a function no longer packaged (a
    // network the stage does not serve, a removed route) would ride along in every zip.
    (pass ??= rm(plugin.buildDirPath, { recursive: true, force: true }).then(() =>
      build({
        ...esbuildOptions,
        // As serverless-esbuild merges them (dist/bundle.js).
        external: [...(settings.external ?? []), ...(exclude.includes('*') ? [] : exclude)],
        entryPoints,
        // functions/auth/getNonce.ts → <buildDir>/functions/auth/getNonce.js, where it puts it too.
        outbase: '.',
        outdir: plugin.buildDirPath,
      }),
    ))
  for (const entry of entryPoints) {
    plugin.buildCache[entry] = { context: { rebuild, dispose: () => Promise.resolve() } }
  }
  return entryPoints.length
}
