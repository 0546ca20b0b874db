// Lean zips (issue 25): a function's zip carries its bundle and no source map, since Node is not
// told to read one (see serverless.yml, environment) and a map is larger than its bundle. The maps
// are a build artifact of their own, `sourcemaps/<function>.js.map` beside the zips, to place a
// crash's position (docs/operations.md, Deploying). Used by deployRules.ts; kept apart so its hooks stay small.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'

/** The folder, beside the zips and the templates, that holds one map per function. */
export const SOURCE_MAP_FOLDER = 'sourcemaps'
const NO_MAPS = '!**/*.map'

interface PackagedFunction {
  handler?: string
  package?: { patterns?: string[] }
}

/** What is read of serverless-esbuild's instance: where it bundles, and the service. */
interface EsbuildPlugin {
  buildDirPath: string
  serviceDirPath: string
}

interface ServerlessWithFunctions {
  service: { getAllFunctions(): string[]; getFunction(name: string): PackagedFunction }
  pluginManager: { plugins: object[] }
}

/** Excludes every `.map` from each function's zip (serverless-esbuild reads function patterns). */
export function leaveSourceMapsOutOfZips(serverless: ServerlessWithFunctions): void {
  for (const name of serverless.service.getAllFunctions()) {
    const fn = serverless.service.getFunction(name)
    const patterns = fn.package?.patterns ?? []
    if (!patterns.includes(NO_MAPS))
      fn.package = { ...fn.package, patterns: [...patterns, NO_MAPS] }
  }
}

function esbuildPlugin(serverless: ServerlessWithFunctions): EsbuildPlugin {
  const plugin = serverless.pluginManager.plugins.find(
    (candidate): candidate is EsbuildPlugin =>
      typeof (candidate as Partial<EsbuildPlugin>).buildDirPath === 'string' &&
      typeof (candidate as Partial<EsbuildPlugin>).serviceDirPath === 'string',
  )
  if (!plugin) throw new Error('serverless-esbuild has not bundled: no source maps to collect')
  return plugin
}

/**
 * Copies each function's map from the esbuild build folder to `sourcemaps/<function>.js.map`
 * beside the zips, its `sources` made relative to the repository (`lib/db/session.ts`,
 * `node_modules/viem/...`), so a position resolves against a checkout of the same commit.
 */
export function collectSourceMaps(serverless: ServerlessWithFunctions): string {
  const { buildDirPath, serviceDirPath } = esbuildPlugin(serverless)
  // osls's own folder: `package --package <dir>` moves all of it to <dir> at the end.
  const outputDir = join(serviceDirPath, '.serverless', SOURCE_MAP_FOLDER)
  mkdirSync(outputDir, { recursive: true })
  for (const name of serverless.service.getAllFunctions()) {
    const handler = serverless.service.getFunction(name).handler ?? ''
    const mapPath = join(buildDirPath, `${handler.replace(/\.[^./]+$/, '')}.js.map`)
    const map = JSON.parse(readFileSync(mapPath, 'utf8')) as { file?: string; sources: string[] }
    // The bundle it maps, as named inside the function's zip.
    map.file = basename(mapPath, '.map')
    map.sources = map.sources.map((source) =>
      relative(serviceDirPath, resolve(dirname(mapPath), source)),
    )
    writeFileSync(join(outputDir, `${name}.js.map`), JSON.stringify(map))
  }
  return outputDir
}
