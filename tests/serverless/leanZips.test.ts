import { statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import esbuildOptions from '../../esbuild.config'
import { useProdTemplate } from '../support/packagedTemplate'
import type { SourceMapPayload } from '../support/tableActionsOfBundle'
import { zipEntries } from '../support/zipEntries'

// Function zips as deployed (lean zips, lib/serverless/sourceMaps.ts, bundleInOnePass.ts): each
// carries its bundle alone, byte for byte a build of its function, within its size budget.

const prod = useProdTemplate()

describe('function zips as deployed (lean zips)', () => {
  const zips = () =>
    Object.keys(prod.functions).map((name) => {
      const path = join(prod.dir, `${name}.zip`)
      return { name, bytes: statSync(path).size, entries: [...zipEntries(path).keys()] }
    })

  it('carry their bundle and no source map; the maps are an artifact of their own', () => {
    for (const { name, entries } of zips()) {
      const handler = prod.functions[name]?.handler.replace(/\.handler$/, '.js')
      const extra = name === 'getDocsAsset' ? 2 : 0
      expect({ name, entries: entries.filter((entry) => entry.endsWith('.map')) }).toEqual({
        name,
        entries: [],
      })
      expect(entries).toContain(handler)
      expect(entries).toHaveLength(1 + extra)
      // The artifact's map belongs to the zip's bundle: same file, and it maps the function's code.
      const map = prod.sourceMapOf(name) as SourceMapPayload & { file?: string }
      expect(map.file).toBe(handler?.split('/').pop())
      expect(map.sources).toContain(prod.functions[name]?.handler.replace(/\.handler$/, '.ts'))
    }
  })

  // `serverless package` bundles every function in one esbuild pass (bundleInOnePass.ts): each
  // zip must hold the very bundle serverless-esbuild's own build of that function alone writes,
  // with the options tests/serverless/bundles.test.ts checks. A function of each kind.
  it('carry the bundle a build of their function alone writes, byte for byte', async () => {
    const {
      exclude,
      packager: _packager,
      keepOutputDirectory: _keep,
      outputWorkFolder: _workFolder,
      watch: _watch,
      ...options
    } = esbuildOptions()
    for (const name of ['listNetworks', 'swapTokensEthereum', 'indexDeposits', 'getDocsAsset']) {
      const entry = prod.functions[name]?.handler.replace(/\.handler$/, '.ts') ?? ''
      const alone = await build({
        ...options,
        external: [...(options.external ?? []), ...(exclude ?? [])],
        entryPoints: [entry],
        // Where serverless-esbuild puts it; nothing is written.
        outdir: join('.esbuild', '.build', dirname(entry)),
        write: false,
        logLevel: 'error',
      })
      const bundle = alone.outputFiles.find((file) => file.path.endsWith('.js'))
      const zipped = zipEntries(join(prod.dir, `${name}.zip`)).get(entry.replace(/\.ts$/, '.js'))

      expect(bundle?.text.length).toBeGreaterThan(1000)
      expect({ name, same: zipped?.toString('utf8') === bundle?.text }).toEqual({
        name,
        same: true,
      })
    }
  })

  it('stay within their size budgets, zipped as uploaded', () => {
    const KB = 1024
    const sizes = zips()
    const total = sizes.reduce((sum, zip) => sum + zip.bytes, 0)
    const largest = Math.max(
      ...sizes.filter((zip) => zip.name !== 'getDocsAsset').map((zip) => zip.bytes),
    )

    // 13.5 MB with the maps inside; 5.9 MB without (docs/operations.md, Deploying). The two quotes
    // carry the table client since they count their client's RPC budget (issue 32): +58 KB each
    // zipped, 6.34 MB in all when measured; the routing's pool-level candidates and the lens
    // codec (issue 33), in every function that routes: 6.45 MB when measured; the preview
    // (issue 40: the simulation, its decoding and SequenceProbe's runtime in every prepare and
    // {key} route) and the approval route (156 KB): 6,757,306 bytes when measured; the WebSocket
    // API's eight functions (issue 41), exact output and permits (issue 40): 7,630,055 bytes.
    expect(total).toBeLessThanOrEqual(7_680_000)
    // A swap or transfer: 182 KB (434 KB with its map); with issue 33's pool-level candidates and
    // lens codec, 201 KB when measured; with the preview, 217,546 bytes (212 KB); with exact
    // output and permits (issue 40), 223,687 bytes (218 KB).
    expect(largest).toBeLessThanOrEqual(222 * KB)
    // The Swagger UI assets ship beside the docs function's bundle.
    expect(sizes.find((zip) => zip.name === 'getDocsAsset')?.bytes).toBeLessThanOrEqual(600 * KB)
  })
})

// A second package: a stage serving the table's third network beside the interface's two
