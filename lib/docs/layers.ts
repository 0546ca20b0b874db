// The layers of the source (docs/architecture.md), one model that the import-graph test checks the
// code against and that `npm run docs:layout` writes the docs' layout tables from, so that the
// docs name the folders the code has, where the code puts them.

/** Modules every layer may use: they belong to no folder, being everyone's. */
export const NEUTRAL_FILES: ReadonlyMap<string, string> = new Map([
  ['lib/errors.ts', 'the typed errors (`AppError` and its kinds)'],
  ['lib/config.ts', 'the configuration: `process.env` over the network table, parsed once'],
  ['lib/config/readEnv.ts', 'reads `process.env` for every section'],
  ['lib/config/authConfig.ts', "sign-in's settings"],
  ['lib/config/depositConfig.ts', "the deposit indexer's settings"],
  ['lib/config/wsConfig.ts', "the WebSocket API's limits and management endpoint"],
  ['lib/config/chainSchema.ts', "a network's variables and their checks"],
  ['lib/config/gasUnits.ts', "a network's gas units: the table's, overridable"],
  ['lib/config/networkSettings.ts', "a network's settings from its table entry"],
  ['lib/logger.ts', 'JSON log lines, every value redacted'],
  ['lib/metrics.ts', 'business metrics as EMF lines (stdout, like the logger)'],
  ['lib/constants.ts', 'the native coin, deadlines, the routes a split may take'],
  ['lib/networkNames.ts', 'the list of networks and the one parser of NETWORKS'],
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

/**
 * Arrows the layers would allow that the code never draws: within the domains, the routing engine
 * answers the send pipeline (a route's gas, `lib/routing/gas/`) and never asks it.
 */
export const FORBIDDEN_ARROWS: readonly { from: string; to: string; why: string }[] = [
  {
    from: 'lib/routing/',
    to: 'lib/send/',
    why: 'the send pipeline asks routing for a route and its gas, never the reverse',
  },
]

/** The forbidden arrow `file → target` draws, if any. */
export function forbiddenArrow(file: string, target: string) {
  return FORBIDDEN_ARROWS.find(({ from, to }) => file.startsWith(from) && target.startsWith(to))
}

/**
 * Whether `file` may import `target`: same layer or below, and no forbidden arrow; schemas only
 * schemas and neutral.
 */
export function mayImport(file: string, target: string): boolean {
  if (file.startsWith('schemas/')) return target.startsWith('schemas/') || NEUTRAL_FILES.has(target)
  return rankOf(target) <= rankOf(file) && forbiddenArrow(file, target) === undefined
}

/**
 * What each folder holds, for the layout tables: a folder of source files with no entry here
 * fails the docs test, and so does an entry for a folder that no longer holds source.
 */
export const FOLDER_ROLES: ReadonlyMap<string, string> = new Map([
  ['functions/<area>/', 'one route per file: its core function and `defineHandler(...)`'],
  ['lib/networkRoutes/', "each operation's route for a network, which its handler file calls"],
  ['lib/networks/', "the network operations and each one's functions, one per network"],
  ['lib/local/', 'the local stack: DynamoDB Local, anvil, DEX deployment, demo catalog'],
  ['lib/openapi/', 'the OpenAPI document, built from the handlers (`npm run openapi`)'],
  ['lib/catalog/', 'the catalog import (`npm run catalog:import`)'],
  ['lib/serverless/', 'the deploy rules plugin: stage guards, one role per function, alarms'],
  ['lib/docs/', 'this layer model and the layout tables it writes (`npm run docs:layout`)'],
  ['lib/http/', '`defineHandler`, its middlewares, the error handler'],
  ['schemas/', 'zod schemas of every request and result; `schemas/openapi.json` (generated)'],
  ['lib/auth/', 'sign-in (SIWE, passwords), JWT sessions, attempt budgets, the auth guards'],
  ['lib/clientSigning/', "the prepare and submit routes' work (DECISIONS §7.3)"],
  ['lib/ws/', 'the WebSocket API: tickets, subscriptions, the feeds and their fan-out (§10.3)'],
  ['lib/swap/', 'quotes and `{key}` swaps: the plan, the router call, approvals'],
  ['lib/transfer/', '`{key}` transfers: the plan and the signed transfer'],
  ['lib/preview/', 'the preview of a sequence of transactions: balance changes and issues'],
  ['lib/markets/', 'prices, pricing paths, market data, project details, watchlist, balances'],
  ['lib/trades/', 'the reconciler and the deposit indexer (budgets, fair share, dust, reorgs)'],
  [
    'lib/routing/',
    'the routing engine, a room each: providers, pools, paths, search, quote, gas, simulate',
  ],
  ['lib/send/', 'the send pipeline: Idempotency-Key claim, gas limit, signing, broadcast, record'],
  [
    'lib/chain/',
    'viem clients per network, ABIs, the pool lens contract and its codec, the router call, ' +
      'chain errors',
  ],
  ['lib/wallet/', 'BIP39 mnemonics, BIP32 derivation, private keys (nothing stored)'],
  ['lib/db/', 'the document client, key builders (`lib/db/keys.ts`), one repository per entity'],
  ['lib/aws/', 'SSM SecureString reads, Lambda credentials, posts to WebSocket connections'],
])

/**
 * The rooms of the routing engine (issue 42), one idea each, in the order they build on each
 * other: a room imports only the rooms before it (tests/unit/lib/importGraph.test.ts), and the
 * layout sections list them from here (a room with source and no entry fails the docs test).
 */
export const ROUTING_ROOMS: ReadonlyMap<string, string> = new Map([
  ['lib/routing/pools/', 'exact V2 and V3 pool math, depth within a band, the mid price'],
  [
    'lib/routing/providers/',
    'pool reads: the PoolLens reader, tick pages, pair selection, swap volumes',
  ],
  ['lib/routing/paths/', 'the routes of up to 3 hops over the pools read'],
  ['lib/routing/gas/', "the gas model, the recipient's first balance, a route's call estimated"],
  ['lib/routing/search/', 'the split search: the float model, discoveries, balancing, completion'],
  ['lib/routing/simulate/', 'the router call run by RouterProbe, tokens seen without a fee'],
  ['lib/routing/quote/', 'the quote: market read, plans and tick pages, simulations, the answer'],
])

/** The routing room a source file is in (undefined outside `lib/routing/<room>/`). */
export function routingRoomOf(file: string): string | undefined {
  const parts = file.split('/')
  if (parts[0] !== 'lib' || parts[1] !== 'routing' || parts.length < 4) return undefined
  return `lib/routing/${parts[2]}/`
}

/** Whether routing room `from` may import room `to`: itself, or a room listed before it. */
export function roomMayImport(from: string, to: string): boolean {
  const rooms = [...ROUTING_ROOMS.keys()]
  const [fromIndex, toIndex] = [rooms.indexOf(from), rooms.indexOf(to)]
  return fromIndex >= 0 && toIndex >= 0 && toIndex <= fromIndex
}

/** The folder a source file is described under: `functions/<area>/`, `lib/<x>/` or `schemas/`. */
export function roleFolderOf(file: string): string | undefined {
  if (NEUTRAL_FILES.has(file)) return undefined
  const parts = file.split('/')
  if (parts[0] === 'functions') return 'functions/<area>/'
  if (parts[0] === 'schemas') return 'schemas/'
  if (parts[0] === 'lib' && parts.length > 2) return `lib/${parts[1]}/`
  return undefined
}
