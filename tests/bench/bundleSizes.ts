import { type BuildOptions, build } from 'esbuild'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import esbuildOptions from '../../esbuild.config'
import type { DeclaredFunction } from '../../lib/openapi/declaredFunctions'

export interface BundleReport {
  name: string
  outfile: string
  bytes: number
  /** Bytes of the AWS SDK (@aws-sdk/*, @smithy/* and their helpers) in the output. */
  awsSdkBytes: number
  carries: {
    /** viem's clients, transports or actions: the code that talks to a node. */
    viemClient: boolean
    /** Any of viem (utilities such as address checksums included). */
    viem: boolean
    jose: boolean
    awsSdk: boolean
    zod: boolean
    /** Classic zod, which schemas/zod.ts replaces with zod/mini. */
    zodClassic: boolean
  }
  /** Every package in the bundle, for tests that look for one that must not be there. */
  modules: string[]
  largestInputs: Array<{ module: string; bytes: number }>
}

export const BUNDLE_DIR = join('.test-output', 'bench', 'bundles')

// The SDK's own packages, and the small ones only it uses (endpoint cache, invoke store).
const AWS_SDK_MODULES = /^(@aws-sdk\/|@smithy\/|@aws\/|@aws-crypto\/|mnemonist$|obliterator$)/

function moduleOf(input: string): string {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'project code'
}

/**
 * Bundles one entry exactly as serverless-esbuild does, with a metafile to read sizes from.
 * `overrides` changes the options for a comparison (e.g. the AWS SDK left external).
 */
export async function bundle(
  name: string,
  entry: string,
  overrides: BuildOptions = {},
): Promise<BundleReport> {
  mkdirSync(BUNDLE_DIR, { recursive: true })
  const {
    exclude: _exclude,
    packager: _packager,
    keepOutputDirectory: _keep,
    outputWorkFolder: _workFolder,
    watch: _watch,
    ...options
  } = esbuildOptions()
  const outfile = join(BUNDLE_DIR, `${name.replace(/[^\w.-]+/g, '_')}.js`)
  const result = await build({
    ...options,
    ...overrides,
    entryPoints: [entry],
    outfile,
    metafile: true,
    write: true,
    logLevel: 'error',
  })
  const output = result.metafile.outputs[outfile]
  if (!output) throw new Error(`esbuild wrote no ${outfile}`)
  const byModule = new Map<string, number>()
  let viemClient = false
  let zodClassic = false
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const module = moduleOf(input)
    byModule.set(module, (byModule.get(module) ?? 0) + bytesInOutput)
    if (/node_modules\/viem\/_esm\/(clients|actions)\//.test(input)) viemClient = true
    if (/node_modules\/zod\/v4\/classic\//.test(input)) zodClassic = true
  }
  const modules = [...byModule.keys()]
  return {
    name,
    outfile,
    bytes: output.bytes,
    awsSdkBytes: modules
      .filter((module) => AWS_SDK_MODULES.test(module))
      .reduce((sum, module) => sum + (byModule.get(module) ?? 0), 0),
    carries: {
      viemClient,
      viem: modules.some((module) => module === 'viem' || module === 'ox'),
      jose: modules.includes('jose'),
      awsSdk: modules.some((module) => module.startsWith('@aws-sdk/')),
      zod: modules.includes('zod'),
      zodClassic,
    },
    modules,
    largestInputs: [...byModule.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([module, bytes]) => ({ module, bytes })),
  }
}

// Reference handlers, bundled the same way: nothing at all, and only the DynamoDB document client
// every table-backed function needs (the floor the SDK sets).
const REFERENCES = {
  '(empty handler)': 'export const handler = async () => ({})\n',
  '(DynamoDB client only)': [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'",
    "import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb'",
    'const db = DynamoDBDocumentClient.from(new DynamoDBClient({}))',
    'export const handler = async () => db.send(new GetCommand({ TableName: "t", Key: {} }))',
    '',
  ].join('\n'),
}

export type ReferenceName = keyof typeof REFERENCES

export async function bundleReferences(): Promise<BundleReport[]> {
  mkdirSync(BUNDLE_DIR, { recursive: true })
  const reports: BundleReport[] = []
  for (const [name, source] of Object.entries(REFERENCES)) {
    const entry = join(BUNDLE_DIR, `${name.replace(/[^\w]+/g, '_')}.ts`)
    writeFileSync(entry, source)
    reports.push(await bundle(name, entry))
  }
  return reports
}

export async function bundleAll(functions: DeclaredFunction[]): Promise<BundleReport[]> {
  const reports: BundleReport[] = []
  // One at a time: esbuild is already parallel inside, and the machine has two cores.
  for (const fn of functions) reports.push(await bundle(fn.name, fn.entry))
  return reports
}
