import { type BuildContext, context, version as esbuildVersion } from 'esbuild'
import { createHash } from 'node:crypto'
import { existsSync, type FSWatcher, watch as watchFolder } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import esbuildOptions from '../../esbuild.config'
import { declaredFunctions } from '../openapi/declaredFunctions'

/** serverless-esbuild's name for the folder under its work folder that offline runs from. */
const BUILD_FOLDER = '.build'
/** Beside that folder: what the bundles in it were built from (see `bundleFunctions`). */
const MANIFEST_FILE = 'bundles.json'
/** Files esbuild reads beside the inputs its metafile lists: they key the cache too. */
const SETTINGS_FILES = ['package-lock.json', 'tsconfig.json', 'esbuild.config.ts']
/** The sources `npm start` rebuilds on (serverless-esbuild's own watch pattern, before). */
const WATCHED_FOLDERS = ['functions', 'lib', 'schemas']
// An editor's save is often several events (write, rename, chmod): one rebuild for them all.
const REBUILD_DEBOUNCE_MS = 100

export interface FunctionBundles {
  /** How many functions were bundled. */
  count: number
  /** Where offline runs them from (serverless-esbuild's build folder for `offline`). */
  buildDir: string
  /** True when the bundles of a previous start were current and used as they were. */
  reused: boolean
  /** Stops watching (if it did) and frees esbuild's context. */
  dispose(): Promise<void>
}

export interface BundleFunctionsOptions {
  /** Rebuild on every change under functions/, lib/ and schemas/ (npm start); offline reloads. */
  watch?: boolean
  /** Told of each rebuild that failed while watching (the bundles offline runs stay the old). */
  onRebuildError?: (message: string) => void
}

interface Manifest {
  key: string
  /** Every file the bundles were built from, relative to the repository (esbuild's metafile). */
  inputs: string[]
}

/**
 * Bundles every function of serverless.yml for `serverless offline` in one esbuild pass (one
 * build with an entry point per handler, so the modules they share are parsed once), with the
 * options serverless-esbuild itself takes from esbuild.config.ts for `offline`, into the folder
 * offline runs from. esbuild.config.ts then tells serverless-esbuild to build nothing itself
 * (OFFLINE_PREBUILT=1). Each function still gets a bundle of its own, as it does deployed.
 *
 * The bundles are kept between starts with a manifest of what they were built from: the hash of
 * the options, the entry points, esbuild's version and the content of every input file. When all
 * of it is unchanged the bundles are those a build would write, and are used as they are.
 */
export async function bundleFunctions(
  options: BundleFunctionsOptions = {},
): Promise<FunctionBundles> {
  const {
    exclude: _exclude,
    packager: _packager,
    keepOutputDirectory: _keepOutputDirectory,
    outputWorkFolder = '.esbuild-offline',
    watch: _watch,
    ...buildOptions
  } = esbuildOptions({ processedInput: { commands: ['offline', 'start'] } })
  // One entry per file: a network operation's file is every network's function's.
  const entryPoints = [...new Set(declaredFunctions().map((declared) => declared.entry))]
  const buildDir = join(outputWorkFolder, BUILD_FOLDER)
  const manifestPath = join(outputWorkFolder, MANIFEST_FILE)
  const fingerprint = JSON.stringify({ esbuildVersion, buildOptions, entryPoints })
  const outputs = entryPoints.map((entry) => join(buildDir, entry.replace(/\.ts$/, '.js')))

  const reused = await manifestIsCurrent(manifestPath, fingerprint, outputs)
  let built: BuildContext | undefined
  let disposed = false
  // Created on the first build only: reused bundles need no context until a source changes.
  const build = async () => {
    built ??= await context({
      ...buildOptions,
      entryPoints,
      // functions/auth/getNonce.ts → <buildDir>/functions/auth/getNonce.js, where offline looks.
      outbase: '.',
      outdir: buildDir,
      metafile: true,
      logLevel: 'silent',
    })
    // A build cut short leaves no manifest, so the next start builds again.
    await rm(manifestPath, { force: true })
    const result = await built.rebuild()
    const inputs = Object.keys(result.metafile?.inputs ?? {}).sort()
    const manifest: Manifest = { key: await bundleInputsKey(fingerprint, inputs), inputs }
    await mkdir(outputWorkFolder, { recursive: true })
    await writeFile(manifestPath, JSON.stringify(manifest))
  }
  const watchers: FSWatcher[] = []
  const rebuildTimer: { current?: NodeJS.Timeout } = {}
  const dispose = async () => {
    disposed = true
    clearTimeout(rebuildTimer.current)
    for (const watcher of watchers.splice(0)) watcher.close()
    const disposing = built
    built = undefined
    await disposing?.dispose()
  }
  try {
    if (!reused) await build()
    if (options.watch)
      watchers.push(
        ...watchSources({
          build,
          timer: rebuildTimer,
          disposed: () => disposed,
          onError: (message) => {
            if (!disposed) options.onRebuildError?.(message)
          },
        }),
      )
  } catch (error) {
    await dispose()
    throw error
  }
  return { count: entryPoints.length, buildDir, reused, dispose }
}

/** The manifest names the current inputs, options and entry points, and every bundle is there. */
async function manifestIsCurrent(
  manifestPath: string,
  fingerprint: string,
  outputs: string[],
): Promise<boolean> {
  const text = await readFile(manifestPath, 'utf8').catch(() => undefined)
  if (text === undefined || !outputs.every((output) => existsSync(output))) return false
  const manifest = JSON.parse(text) as Partial<Manifest>
  if (typeof manifest.key !== 'string' || !Array.isArray(manifest.inputs)) return false
  // An input that is gone (a file deleted or moved) means a build would differ.
  const key = await bundleInputsKey(fingerprint, manifest.inputs).catch(() => undefined)
  return key === manifest.key
}

/**
 * What keys a set of bundles: `fingerprint` (options, entry points, esbuild's version), then each
 * settings file and input by path and content. Rejects when an input cannot be read.
 */
export async function bundleInputsKey(fingerprint: string, inputs: string[]): Promise<string> {
  const hash = createHash('sha256').update(fingerprint)
  const files = [...SETTINGS_FILES.filter((file) => existsSync(file)), ...inputs]
  const contents = await Promise.all(files.map((file) => readFile(file)))
  files.forEach((file, index) => hash.update(`\0${file}\0`).update(contents[index] ?? ''))
  return hash.digest('hex')
}

/**
 * Rebuilds after each change under the watched folders, one rebuild at a time; a change during
 * a rebuild is followed by one more. offline reloads a bundle once it is rewritten.
 */
function watchSources({
  build,
  timer,
  disposed,
  onError,
}: {
  build: () => Promise<void>
  /** The pending rebuild, which dispose cancels. */
  timer: { current?: NodeJS.Timeout }
  disposed: () => boolean
  onError: (message: string) => void
}): FSWatcher[] {
  let running: Promise<void> | undefined
  let again = false
  const rebuild = () => {
    if (disposed()) return
    if (running) {
      again = true
      return
    }
    running = build()
      .catch((error: unknown) => onError(error instanceof Error ? error.message : String(error)))
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          rebuild()
        }
      })
  }
  return WATCHED_FOLDERS.filter((folder) => existsSync(folder)).map((folder) =>
    watchFolder(folder, { recursive: true }, () => {
      clearTimeout(timer.current)
      timer.current = setTimeout(rebuild, REBUILD_DEBOUNCE_MS)
    }),
  )
}
