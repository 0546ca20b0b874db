import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileSolidityFresh, solidityInput } from '../../../../lib/local/catalogTokenArtifact'
import { COMMITTED_DIR, listCommittedArtifacts } from '../../../../lib/local/committedArtifacts'

// The compiled contracts kept in lib/local/compiled/ are what solc makes of today's sources:
// a stale one would be skipped at start (its key no longer matches) and cost a fresh clone the
// compile it exists to save; a hand-edited one would deploy code no source says.

const LOCAL = join(COMMITTED_DIR, '..')

describe('the committed compiled contracts of lib/local', () => {
  it('cover every Solidity source of lib/local', async () => {
    const sources = readdirSync(LOCAL).filter((name) => name.endsWith('.sol'))
    const committed = new Set((await listCommittedArtifacts()).map((a) => a.sourceName))

    expect(sources.filter((name) => !committed.has(name))).toEqual([])
  })

  it('are keyed by the input today’s sources make (recompile and commit after an edit)', async () => {
    for (const artifact of await listCommittedArtifacts()) {
      const source = readFileSync(join(LOCAL, artifact.sourceName), 'utf8')
      const { key } = solidityInput({ ...artifact, source })

      expect({ contract: artifact.contractName, key }).toEqual({
        contract: artifact.contractName,
        key: artifact.key,
      })
    }
  })

  it('are what solc compiles from those sources, byte for byte', async () => {
    for (const artifact of await listCommittedArtifacts()) {
      const source = readFileSync(join(LOCAL, artifact.sourceName), 'utf8')
      const compiled = compileSolidityFresh({ ...artifact, source })

      expect({ contract: artifact.contractName, ...compiled }).toEqual({
        contract: artifact.contractName,
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        deployedBytecode: artifact.deployedBytecode,
      })
    }
  })
})
