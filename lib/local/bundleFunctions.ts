import { type BuildContext, context } from 'esbuild'
import { join } from 'node:path'
import esbuildOptions from '../../esbuild.config'
import { declaredFunctions } from '../openapi/declaredFunctions'

/** serverless-esbuild's name for the folder under its work folder that offline runs from. */
const BUILD_FOLDER = '.build'

export interface FunctionBundles {
  /** How many functions were bundled. */
  count: number
  /** Where offline runs them from (serverless-esbuild's build folder for `offline`). */
  buildDir: string
  /** Stops watching (if it did) and frees esbuild's context. */
  dispose(): Promise<void>
}

export interface BundleFunctionsOptions {
  /** Rebuild on every change under functions/, lib/ and schemas/ (npm start); offline reloads. */
  watch?: boolean
}

/**
 * Bundles every function of serverless.yml for `serverless offline` in one esbuild pass (one
 * build with an entry point per handler, so the modules they share are parsed once), with the
 * options serverless-esbuild itself takes from esbuild.config.ts for `offline`, into the folder
 * offline runs from. esbuild.config.ts then tells serverless-esbuild to build nothing itself
 * (OFFLINE_PREBUILT=1). Each function still gets a bundle of its own, as it does deployed.
 */
export async function bundleFunctions(
  options: BundleFunctionsOptions = {},
): Promise<FunctionBundles> {
  const {
    exclude: _exclude,
    packager: _packager,
    keepOutputDirectory: _keepOutputDirectory,
    outputWorkFolder,
    watch: _watch,
    ...buildOptions
  } = esbuildOptions({ processedInput: { commands: ['offline', 'start'] } })
  const entryPoints = declaredFunctions().map((declared) => declared.entry)
  const buildDir = join(outputWorkFolder ?? '.esbuild-offline', BUILD_FOLDER)
  let built: BuildContext | undefined = await context({
    ...buildOptions,
    entryPoints,
    // functions/auth/getNonce.ts → <buildDir>/functions/auth/getNonce.js, where offline looks.
    outbase: '.',
    outdir: buildDir,
    logLevel: 'silent',
  })
  const dispose = async () => {
    const disposing = built
    built = undefined
    await disposing?.dispose()
  }
  try {
    await built.rebuild()
    if (options.watch) await built.watch()
  } catch (error) {
    await dispose()
    throw error
  }
  return { count: entryPoints.length, buildDir, dispose }
}
