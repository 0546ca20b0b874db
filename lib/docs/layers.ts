// The layers of the source (docs/architecture.md), one model that the import-graph test checks the
// code against and that `npm run docs:layout` writes the docs' layout tables from, so that the
// docs name the folders the code has, where the code puts them.

/** Modules every layer may use: they belong to no folder, being everyone's. */
export const NEUTRAL_FILES: ReadonlyMap<string, string> = new Map([
  ['lib/errors.ts', 'the typed errors (`AppError` and its kinds)'],
  ['lib/config.ts', 'the only reader of `process.env`, parsed once'],
  ['lib/logger.ts', 'JSON log lines, every value redacted'],
  ['lib/metrics.ts', 'business metrics as EMF lines (stdout, like the logger)'],
  ['lib/constants.ts', 'the native coin, deadlines'],
  ['lib/networkNames.ts', 'the networks served, which schemas and configuration both read'],
  ['lib/networks.ts', 'the network table (DECISIONS §9.5)'],
  ['lib/formatTimestamp.ts', "the interface's timestamp"],
  ['lib/mapConcurrently.ts', 'bounded concurrency'],
  ['lib/admission.ts', "the request's pending session check, awaited by every write"],
  ['schemas/zod.ts', 'the zod entry (`lib/config.ts` parses the environment with it)'],
])

export interface Layer {
  rank: number
  name: string
  /** Folder prefixes (with a trailing slash) that make up the layer. */
  folders: readonly string[]
}

/**
 * Highest first. A file may import its own layer or one below; `schemas/` only itself and the
 * neutral modules. Every `lib/<domain>/` not named here is a domain (rank 3).
 */
export const LAYERS: readonly Layer[] = [
  {
    rank: 6,
    name: 'handlers and tooling',
    folders: [
      'functions/',
      'lib/networkRoutes/',
      'lib/local/',
      'lib/openapi/',
      'lib/catalog/',
      'lib/serverless/',
      'lib/networks/',
      'lib/docs/',
    ],
  },
  { rank: 5, name: 'the handler wrapper', folders: ['lib/http/'] },
  { rank: 4, name: 'schemas', folders: ['schemas/'] },
  { rank: 3, name: 'domains', folders: ['lib/'] },
  { rank: 2, name: 'chain and keys', folders: ['lib/chain/', 'lib/wallet/'] },
  { rank: 1, name: 'storage and AWS', folders: ['lib/db/', 'lib/aws/'] },
]

/** The layer rank of a source file: higher may import lower, never the other way. */
export function rankOf(file: string): number {
  if (NEUTRAL_FILES.has(file)) return 0
  // The longest matching prefix decides: `lib/chain/` before `lib/`.
  let best: { rank: number; length: number } = { rank: 3, length: 0 }
  for (const layer of LAYERS) {
    for (const folder of layer.folders) {
      if (file.startsWith(folder) && folder.length > best.length) {
        best = { rank: layer.rank, length: folder.length }
      }
    }
  }
  return best.rank
}

/** Whether `file` may import `target`: same layer or below; schemas only schemas and neutral. */
export function mayImport(file: string, target: string): boolean {
  if (file.startsWith('schemas/')) return target.startsWith('schemas/') || NEUTRAL_FILES.has(target)
  return rankOf(target) <= rankOf(file)
}

/**
 * What each folder holds, for the layout tables: a folder of source files with no entry here
 * fails the docs test, and so does an entry for a folder that no longer holds source.
 */
export const FOLDER_ROLES: ReadonlyMap<string, string> = new Map([
  ['functions/<area>/', 'one route per file: its core function and `defineHandler(...)`'],
  ['lib/networkRoutes/', "each operation's route for a network, which its handler file calls"],
  ['lib/networks/', 'the network operations and the files `npm run networks` writes'],
  ['lib/local/', 'the local stack: DynamoDB Local, anvil, DEX deployment, demo catalog'],
  ['lib/openapi/', 'the OpenAPI document, built from the handlers (`npm run openapi`)'],
  ['lib/catalog/', 'the catalog import (`npm run catalog:import`)'],
  ['lib/serverless/', 'the deploy rules plugin: stage guards, one role per function, alarms'],
  ['lib/docs/', 'this layer model and the layout tables it writes (`npm run docs:layout`)'],
  ['lib/http/', '`defineHandler`, its middlewares, the error handler'],
  ['schemas/', 'zod schemas of every request and result; `schemas/openapi.json` (generated)'],
  ['lib/auth/', 'sign-in (SIWE, passwords), JWT sessions, attempt budgets, the auth guards'],
  ['lib/clientSigning/', "the prepare and submit routes' work (DECISIONS §7.3)"],
  ['lib/swap/', 'quotes and `{key}` swaps: the plan, the router call, approvals'],
  ['lib/transfer/', '`{key}` transfers: the plan and the signed transfer'],
  ['lib/preview/', 'the preview of a sequence of transactions: balance changes and issues'],
  ['lib/markets/', 'prices, pricing paths, market data, project details, watchlist, balances'],
  ['lib/trades/', 'the reconciler and the deposit indexer (budgets, fair share, dust, reorgs)'],
  ['lib/routing/', 'the routing engine: paths, the split search, gas model, simulation'],
  ['lib/send/', 'the send pipeline: Idempotency-Key claim, gas limit, signing, broadcast, record'],
  ['lib/chain/', 'viem clients per network, ABIs, the pool lens and pool math, chain errors'],
  ['lib/wallet/', 'BIP39 mnemonics, BIP32 derivation, private keys (nothing stored)'],
  ['lib/db/', 'the document client, key builders (`lib/db/keys.ts`), one repository per entity'],
  ['lib/aws/', 'SSM SecureString reads, Lambda credentials'],
])

/** The folder a source file is described under: `functions/<area>/`, `lib/<x>/` or `schemas/`. */
export function roleFolderOf(file: string): string | undefined {
  if (NEUTRAL_FILES.has(file)) return undefined
  const parts = file.split('/')
  if (parts[0] === 'functions') return 'functions/<area>/'
  if (parts[0] === 'schemas') return 'schemas/'
  if (parts[0] === 'lib' && parts.length > 2) return `lib/${parts[1]}/`
  return undefined
}
