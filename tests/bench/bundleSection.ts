import type { DeclaredFunction } from '../../lib/openapi/declaredFunctions'
import { type BundleReport, bundle, bundleAll, bundleReferences } from './bundleSizes'
import { loadTimeMs } from './coldStart'
import { kb, median, ms } from './stats'

const LOAD_RUNS = 7
const SIZE_GOAL = 250 * 1024
const MEDIAN_GOAL = 150 * 1024
const LOAD_GOAL_MS = 40

interface Measured extends BundleReport {
  loadMs: number
}

const flag = (value: boolean) => (value ? 'yes' : '—')

function worst<Item>(items: Item[], value: (item: Item) => number): Item | undefined {
  return [...items].sort((a, b) => value(b) - value(a))[0]
}

/**
 * The "Bundles and cold start" section: every function's size from the esbuild metafile, its
 * load time beside two references, and the measurement behind bundling the AWS SDK.
 */
export async function bundleSection(functions: DeclaredFunction[]): Promise<string[]> {
  const reports = [...(await bundleAll(functions)), ...(await bundleReferences())]
  const measured: Measured[] = reports.map((report) => ({
    ...report,
    loadMs: loadTimeMs(report.outfile, LOAD_RUNS),
  }))
  const empty = measured.find((report) => report.name === '(empty handler)')?.loadMs ?? 0
  const sdkFloor = measured.find((report) => report.name === '(DynamoDB client only)')

  // The alternative: the SDK left to the Lambda runtime, loaded from node_modules at cold start.
  const probe = functions.find((fn) => fn.name === 'listNetworks') ?? functions[0]
  if (!probe) throw new Error('serverless.yml declares no functions')
  const bundled = measured.find((report) => report.name === probe.name)
  const external = await bundle(`${probe.name} (SDK external)`, probe.entry, {
    external: ['@aws-sdk/*', '@smithy/*'],
  })
  const externalLoadMs = loadTimeMs(external.outfile, LOAD_RUNS)

  const http = measured.filter((report) => functions.find((fn) => fn.name === report.name)?.http)
  const ownBytes = (report: BundleReport) => report.bytes - report.awsSdkBytes
  const largest = worst(http, (report) => report.bytes)
  const largestOwn = worst(http, ownBytes)
  const slowest = worst(
    measured.filter((report) => !report.name.startsWith('(')),
    (report) => report.loadMs,
  )
  const row = (report: Measured) =>
    `| ${report.name} | ${kb(report.bytes)} | ${kb(ownBytes(report))} | ${ms(report.loadMs)} | ` +
    `${ms(report.loadMs - empty)} | ${flag(report.carries.viemClient)} | ` +
    `${flag(report.carries.jose)} | ${flag(report.carries.awsSdk)} | ` +
    report.largestInputs.map((input) => `${input.module} ${kb(input.bytes)}`).join(', ') +
    ' |'

  return [
    '## Bundles and cold start',
    '',
    'Each function bundled alone by the options of `esbuild.config.ts` (minified, tree-shaken, ' +
      'AWS SDK included); sizes from the esbuild metafile. "Without SDK" leaves out the bytes of ' +
      '@aws-sdk/* and @smithy/*. Load time is `require` of the bundle in a fresh Node process, ' +
      `median of ${LOAD_RUNS}, beside two references bundled the same way in the same run: an ` +
      'empty handler, and a handler holding only the DynamoDB document client.',
    '',
    '| function | size | without SDK | load | over empty | viem client | jose | AWS SDK | largest inputs |',
    '| --- | ---: | ---: | ---: | ---: | :-: | :-: | :-: | --- |',
    ...measured.map(row),
    '',
    `Goals, HTTP functions: size under ${kb(SIZE_GOAL)} — largest ${largest?.name} ` +
      `${kb(largest?.bytes ?? 0)} (${kb(largestOwn ? ownBytes(largestOwn) : 0)} without the SDK, ` +
      `largest ${largestOwn?.name}); median under ${kb(MEDIAN_GOAL)} — ` +
      `${kb(median(http.map((report) => report.bytes)))} ` +
      `(${kb(median(http.map(ownBytes)))} without the SDK). Load within ${LOAD_GOAL_MS} ms of ` +
      `the empty handler — slowest ${slowest?.name} ${ms((slowest?.loadMs ?? 0) - empty)} over ` +
      `empty; the DynamoDB client alone costs ${ms((sdkFloor?.loadMs ?? 0) - empty)} over empty ` +
      `(${kb(sdkFloor?.bytes ?? 0)}).`,
    '',
    '### The AWS SDK: bundled or left to the runtime',
    '',
    `| ${probe.name} | size | load | over empty |`,
    '| --- | ---: | ---: | ---: |',
    `| SDK bundled (lean: ES builds, env credentials only) | ${kb(bundled?.bytes ?? 0)} | ` +
      `${ms(bundled?.loadMs ?? 0)} | ${ms((bundled?.loadMs ?? 0) - empty)} |`,
    `| SDK left to the runtime (@aws-sdk/*, @smithy/* from node_modules) | ` +
      `${kb(external.bytes)} | ${ms(externalLoadMs)} | ${ms(externalLoadMs - empty)} |`,
    '',
  ]
}
