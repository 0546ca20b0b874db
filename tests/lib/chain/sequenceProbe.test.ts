import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { SEQUENCE_PROBE_RUNTIME } from '../../../lib/chain/sequenceProbe'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'

describe('SequenceProbe', () => {
  it('is the committed runtime code of SequenceProbe.sol, byte for byte', async () => {
    const source = await readFile(
      new URL('../../../lib/chain/SequenceProbe.sol', import.meta.url),
      'utf8',
    )

    const compiled = await compileSolidity({
      sourceName: 'SequenceProbe.sol',
      source,
      contractName: 'SequenceProbe',
    })

    expect(compiled.deployedBytecode).toBe(SEQUENCE_PROBE_RUNTIME)
  })
})
