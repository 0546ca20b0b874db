import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { POOL_LENS_RUNTIME } from '../../../lib/chain/poolLens'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'

describe('PoolLens', () => {
  it('is the committed runtime code of PoolLens.sol, byte for byte', async () => {
    const source = await readFile(
      new URL('../../../lib/chain/PoolLens.sol', import.meta.url),
      'utf8',
    )

    const compiled = await compileSolidity({
      sourceName: 'PoolLens.sol',
      source,
      contractName: 'PoolLens',
    })

    expect(compiled.deployedBytecode).toBe(POOL_LENS_RUNTIME)
  })
})
