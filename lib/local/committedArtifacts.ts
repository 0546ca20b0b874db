import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The devnets' own contracts, compiled, kept in the repository beside their sources: a fresh
// clone's first `npm start` reads them instead of running solc (about 5 s of one core, on the
// start's critical path), as lib/chain keeps PoolLens's runtime code. Each is keyed like the
// solc cache (the compiler input and the versions), so an edited source misses it and is
// compiled; the compile writes the artifact again, to be committed with the source.
// tests/unit/lib/local/committedArtifacts.test.ts fails on one that is not current.

/** Where they are kept: `lib/local/compiled/<contract>.json`. */
export const COMMITTED_DIR = fileURLToPath(new URL('./compiled/', import.meta.url))
const SOURCES_DIR = fileURLToPath(new URL('./', import.meta.url))

/** What a committed artifact holds: how to compile it again, its key, and the output. */
export interface CommittedArtifact {
  sourceName: string
  contractName: string
  compiler: 'solc' | 'solc-0.7.6'
  key: string
  abi: readonly Record<string, unknown>[]
  bytecode: string
  deployedBytecode: string
}

/** Whether `source` is the content of `lib/local/<sourceName>`: only those are committed. */
export function isLocalSource(sourceName: string, source: string): boolean {
  try {
    return readFileSync(join(SOURCES_DIR, sourceName), 'utf8') === source
  } catch {
    return false
  }
}

/** The committed artifact of `contractName` when it was compiled from input `key`. */
export async function readCommittedArtifact(
  contractName: string,
  key: string,
): Promise<CommittedArtifact | undefined> {
  const text = await readFile(join(COMMITTED_DIR, `${contractName}.json`), 'utf8').catch(
    () => undefined,
  )
  if (text === undefined) return undefined
  const artifact = JSON.parse(text) as CommittedArtifact
  return artifact.key === key ? artifact : undefined
}

/** Writes (then renames, so a parallel reader never sees half of it) a committed artifact. */
export async function writeCommittedArtifact(artifact: CommittedArtifact): Promise<void> {
  const path = join(COMMITTED_DIR, `${artifact.contractName}.json`)
  await mkdir(COMMITTED_DIR, { recursive: true })
  const partial = `${path}.${process.pid}.${randomUUID()}.tmp`
  await writeFile(partial, `${JSON.stringify(artifact, null, 2)}\n`)
  await rename(partial, path)
}

/** Every committed artifact. */
export async function listCommittedArtifacts(): Promise<CommittedArtifact[]> {
  const names = (await readdir(COMMITTED_DIR)).filter((name) => name.endsWith('.json'))
  return Promise.all(
    names.map(
      async (name) =>
        JSON.parse(await readFile(join(COMMITTED_DIR, name), 'utf8')) as CommittedArtifact,
    ),
  )
}
