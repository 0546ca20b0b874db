import { build } from 'esbuild'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import esbuildOptions from '../../esbuild.config'
import type { DeclaredFunction } from '../../lib/serverless/declaredFunctions'

export interface BundleReport {
  name: string
  outfile: string
  bytes: number
  carries: { viem: boolean; jose: boolean; awsSdk: boolean; zod: boolean }
  largestInputs: Array<{ module: string; bytes: number }>
}

export const BUNDLE_DIR = join('.test-output', 'bench', 'bundles')

function moduleOf(input: string): string {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'project code'
}

/** Bundles one entry exactly as serverless-esbuild does, with a metafile to read sizes from. */
export async function bundle(name: string, entry: string): Promise<BundleReport> {
  mkdirSync(BUNDLE_DIR, { recursive: true })
  const {
    exclude: _exclude,
    packager: _packager,
    keepOutputDirectory: _keep,
    ...options
  } = esbuildOptions()
  const outfile = join(BUNDLE_DIR, `${name}.js`)
  const result = await build({
    ...options,
    entryPoints: [entry],
    outfile,
    metafile: true,
    write: true,
  })
  const output = result.metafile.outputs[outfile]
  if (!output) throw new Error(`esbuild wrote no ${outfile}`)
  const byModule = new Map<string, number>()
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const module = moduleOf(input)
    byModule.set(module, (byModule.get(module) ?? 0) + bytesInOutput)
  }
  const modules = [...byModule.keys()]
  return {
    name,
    outfile,
    bytes: output.bytes,
    carries: {
      viem: modules.some((module) => module === 'viem' || module === 'ox'),
      jose: modules.includes('jose'),
      awsSdk: modules.some((module) => module.startsWith('@aws-sdk/')),
      zod: modules.includes('zod'),
    },
    largestInputs: [...byModule.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([module, bytes]) => ({ module, bytes })),
  }
}

export async function bundleAll(functions: DeclaredFunction[]): Promise<BundleReport[]> {
  const reports: BundleReport[] = []
  // One at a time: esbuild is already parallel inside, and the machine has two cores.
  for (const fn of functions) reports.push(await bundle(fn.name, fn.entry))
  writeFileSync(join(BUNDLE_DIR, 'empty.ts'), 'export const handler = async () => ({})\n')
  reports.push(await bundle('(empty handler)', join(BUNDLE_DIR, 'empty.ts')))
  return reports
}
