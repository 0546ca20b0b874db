import { createHash, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Abi, erc20Abi, type Hex, parseAbi } from 'viem'
import * as z from '../../schemas/zod'
import { isLocalSource, readCommittedArtifact, writeCommittedArtifact } from './committedArtifacts'
import type { ContractArtifact } from './uniswapV2Artifacts'

/** Constructor plus the standard ERC-20 surface of `CatalogToken.sol`. */
export const catalogTokenAbi = [
  ...parseAbi([
    'constructor(string name_, string symbol_, uint8 decimals_, uint256 initialSupply, address holder)',
  ]),
  ...erc20Abi,
] as const

const SOURCE_NAME = 'CatalogToken.sol'
const CONTRACT_NAME = 'CatalogToken'
const SOURCE_PATH = fileURLToPath(new URL(`./${SOURCE_NAME}`, import.meta.url))
const CACHE_DIR = fileURLToPath(new URL('../../.cache/solc/', import.meta.url))

const require = createRequire(import.meta.url)

type ImportResult = { contents: string } | { error: string }
type Solc = { compile(input: string, callbacks: { import(path: string): ImportResult }): string }

const cachedArtifactSchema = z.object({
  abi: z.array(z.record(z.string(), z.unknown())),
  bytecode: z.string().check(z.regex(/^0x[0-9a-f]+$/)),
  deployedBytecode: z.string().check(z.regex(/^0x[0-9a-f]+$/)),
})

const solcOutputSchema = z.object({
  errors: z.optional(z.array(z.object({ severity: z.string(), formattedMessage: z.string() }))),
  contracts: z.optional(
    z.record(
      z.string(),
      z.record(
        z.string(),
        z.object({
          abi: z.array(z.record(z.string(), z.unknown())),
          // Absent when solc failed (an error below says why) or the contract is abstract.
          evm: z.optional(
            z.object({
              bytecode: z.object({ object: z.string() }),
              deployedBytecode: z.object({ object: z.string() }),
            }),
          ),
        }),
      ),
    ),
  ),
})

/** A compiled contract; `deployedBytecode` is its runtime code, as a state override sets it. */
export type CompiledContract = ContractArtifact & { deployedBytecode: Hex }

let loading: Promise<ContractArtifact> | undefined

/** `CatalogToken.sol`, compiled once and cached (see `compileSolidity`). */
export function loadCatalogTokenArtifact(): Promise<ContractArtifact> {
  loading ??= readFile(SOURCE_PATH, 'utf8')
    .then((source) =>
      compileSolidity({ sourceName: SOURCE_NAME, source, contractName: CONTRACT_NAME }),
    )
    .catch((error: unknown) => {
      loading = undefined
      throw error
    })
  return loading
}

let loadingPermit: Promise<ContractArtifact> | undefined

/**
 * `CatalogPermitToken.sol` (CatalogToken with OpenZeppelin's ERC20Permit), compiled once and
 * cached; same constructor as CatalogToken.
 */
export function loadPermitTokenArtifact(): Promise<ContractArtifact> {
  const sourceName = 'CatalogPermitToken.sol'
  loadingPermit ??= readFile(fileURLToPath(new URL(`./${sourceName}`, import.meta.url)), 'utf8')
    .then((source) => compileSolidity({ sourceName, source, contractName: 'CatalogPermitToken' }))
    .catch((error: unknown) => {
      loadingPermit = undefined
      throw error
    })
  return loadingPermit
}

/** The contracts of `ZooTokens.sol`, compiled once and cached; same constructor as CatalogToken. */
export type ZooContracts = { tetherStyle: CompiledContract; feeOnTransfer: CompiledContract }

let loadingZoo: Promise<ZooContracts> | undefined

export function loadZooTokenArtifacts(): Promise<ZooContracts> {
  const sourceName = 'ZooTokens.sol'
  loadingZoo ??= readFile(fileURLToPath(new URL(`./${sourceName}`, import.meta.url)), 'utf8')
    .then(async (source) => {
      // Sequential: solc's module is single-threaded, and the second compile reuses its start.
      const tetherStyle = await compileSolidity({
        sourceName,
        source,
        contractName: 'TetherStyleToken',
      })
      const feeOnTransfer = await compileSolidity({
        sourceName,
        source,
        contractName: 'FeeOnTransferToken',
      })
      return { tetherStyle, feeOnTransfer }
    })
    .catch((error: unknown) => {
      loadingZoo = undefined
      throw error
    })
  return loadingZoo
}

export interface CompileSolidityParameters {
  sourceName: string
  source: string
  contractName: string
  /**
   * `solc` (0.8, OpenZeppelin 5 imports) by default; `solc-0.7.6` for sources built on the
   * Uniswap and PancakeSwap V3 npm contracts (pinned to 0.7.6), which may import from those
   * packages and from the OpenZeppelin 3.4 they bundle.
   */
  compiler?: SolcPackage
}

type SolcPackage = 'solc' | 'solc-0.7.6'

// The npm packages a 0.7.6 source may import from (their versions key the cache).
const LEGACY_IMPORT_PACKAGES = [
  '@uniswap/v2-core',
  '@uniswap/v3-core',
  '@uniswap/v3-periphery',
  '@uniswap/swap-router-contracts',
  '@pancakeswap/v3-core',
  '@pancakeswap/v3-periphery',
] as const

/** The solc input of a contract and its cache key (the input and the versions it depends on). */
export function solidityInput({
  sourceName,
  source,
  contractName,
  compiler = 'solc',
}: CompileSolidityParameters): { input: object; key: string } {
  const legacy = compiler === 'solc-0.7.6'
  const input = {
    language: 'Solidity',
    // A source beside this file that it imports goes in too, so the cache key covers it.
    sources: { [sourceName]: { content: source }, ...localImports(source) },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Pinned so the bytecode does not follow solc's default and runs on any recent anvil.
      evmVersion: legacy ? 'istanbul' : 'cancun',
      outputSelection: {
        [sourceName]: {
          [contractName]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'],
        },
      },
    },
  }
  const key = createHash('sha256')
    .update(packageVersion(compiler))
    .update('\0')
    .update(packageVersion('@openzeppelin/contracts'))
    .update('\0')
    .update(legacy ? LEGACY_IMPORT_PACKAGES.map(packageVersion).join('\0') : '')
    .update(JSON.stringify(input))
    .digest('hex')
  return { input, key }
}

/** Runs solc on the contract, reading no cache and writing none. */
export function compileSolidityFresh(parameters: CompileSolidityParameters): CompiledContract {
  const { sourceName, contractName, compiler = 'solc' } = parameters
  return compile(solidityInput(parameters).input, { sourceName, contractName, compiler })
}

/**
 * Compiles a contract with the npm solc (OpenZeppelin imports allowed), or reads the result from
 * `.cache/solc/<sha256>.json`, keyed by the compiler input and the solc and OpenZeppelin versions,
 * or, for a contract of lib/local, from its committed artifact of the same key
 * (lib/local/committedArtifacts.ts), which a compile of it writes again.
 */
export async function compileSolidity(
  parameters: CompileSolidityParameters,
): Promise<CompiledContract> {
  const { sourceName, source, contractName, compiler = 'solc' } = parameters
  const { input, key } = solidityInput(parameters)
  const cachePath = join(CACHE_DIR, `${key}.json`)

  const cached = await readCached(cachePath)
  if (cached) return cached
  const committed = await readCommittedArtifact(contractName, key)
  if (committed) {
    return toArtifact(committed.abi, committed.bytecode, committed.deployedBytecode)
  }

  const artifact = compile(input, { sourceName, contractName, compiler })
  await mkdir(dirname(cachePath), { recursive: true })
  // Write then rename so a parallel test worker never reads a half-written file; the partial file
  // is this write's own (two compiles of one source in one process, e.g. one per devnet, both
  // write: a name per process alone let the second rename find the file gone).
  const partialPath = `${cachePath}.${process.pid}.${randomUUID()}.tmp`
  await writeFile(partialPath, JSON.stringify(artifact))
  await rename(partialPath, cachePath)
  if (isLocalSource(sourceName, source)) {
    await writeCommittedArtifact({ sourceName, contractName, compiler, key, ...artifact })
  }
  return artifact
}

async function readCached(cachePath: string): Promise<CompiledContract | undefined> {
  const text = await readFile(cachePath, 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  const parsed = cachedArtifactSchema.safeParse(JSON.parse(text))
  return parsed.success
    ? toArtifact(parsed.data.abi, parsed.data.bytecode, parsed.data.deployedBytecode)
    : undefined
}

function compile(
  input: object,
  {
    sourceName,
    contractName,
    compiler,
  }: { sourceName: string; contractName: string; compiler: SolcPackage },
): CompiledContract {
  // Required only on a cache miss, since solc's emscripten module takes a while to start.
  // Its typings are `any`, so pin the one call we make; the output is validated below.
  const solc = require(compiler) as Solc
  const findImport = compiler === 'solc' ? findOpenZeppelinImport : findLegacyImport
  const raw: unknown = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }))
  const output = solcOutputSchema.parse(raw)
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join('\n')}`)
  }
  const contract = output.contracts?.[sourceName]?.[contractName]
  if (!contract?.evm) throw new Error(`solc produced no ${contractName}`)
  return toArtifact(
    contract.abi,
    `0x${contract.evm.bytecode.object}`,
    `0x${contract.evm.deployedBytecode.object}`,
  )
}

/** The sources of lib/local that `source` imports as `"./Name.sol"`, by their unit names. */
function localImports(source: string): Record<string, { content: string }> {
  const names = [...source.matchAll(/^import\s*{[^}]*}\s*from\s*"\.\/(\w+\.sol)";/gm)].map(
    (match) => match[1] ?? '',
  )
  return Object.fromEntries(
    names.map((name) => [
      name,
      { content: readFileSync(fileURLToPath(new URL(`./${name}`, import.meta.url)), 'utf8') },
    ]),
  )
}

/** solc import callback: only OpenZeppelin sources, read from node_modules. */
function findOpenZeppelinImport(path: string): ImportResult {
  if (!path.startsWith('@openzeppelin/contracts/')) return { error: `import not allowed: ${path}` }
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') }
  } catch {
    return { error: `not found: ${path}` }
  }
}

/**
 * solc 0.7.6 import callback: sources of the V2/V3 npm packages, and OpenZeppelin from the 3.4
 * copy that @uniswap/v3-periphery bundles (the project's own OpenZeppelin 5 needs solc 0.8).
 */
function findLegacyImport(path: string): ImportResult {
  const allowed =
    path.startsWith('@openzeppelin/contracts/') ||
    LEGACY_IMPORT_PACKAGES.some((name) => path.startsWith(`${name}/contracts/`))
  if (!allowed) return { error: `import not allowed: ${path}` }
  const resolveFrom = path.startsWith('@openzeppelin/')
    ? createRequire(require.resolve('@uniswap/v3-periphery/package.json'))
    : require
  try {
    return { contents: readFileSync(resolveFrom.resolve(path), 'utf8') }
  } catch {
    return { error: `not found: ${path}` }
  }
}

function packageVersion(name: string): string {
  const json: unknown = require(`${name}/package.json`)
  if (typeof json === 'object' && json !== null && 'version' in json) return String(json.version)
  throw new Error(`${name}/package.json has no version`)
}

function toArtifact(
  abi: readonly Record<string, unknown>[],
  bytecode: string,
  deployedBytecode: string,
): CompiledContract {
  // solc emits a JSON ABI; typed calls go through catalogTokenAbi.
  return {
    abi: abi as unknown as Abi,
    bytecode: bytecode as Hex,
    deployedBytecode: deployedBytecode as Hex,
  }
}
