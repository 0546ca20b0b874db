import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { SWAP_PROBE_RUNTIME } from '../../../../lib/chain/swapProbe'
import { compileSolidity } from '../../../../lib/local/catalogTokenArtifact'

describe('SwapProbe', () => {
  it('is the committed runtime code of SwapProbe.sol, byte for byte', async () => {
    const source = await readFile(
      new URL('../../../../lib/chain/SwapProbe.sol', import.meta.url),
      'utf8',
    )

    const compiled = await compileSolidity({
      sourceName: 'SwapProbe.sol',
      source,
      contractName: 'SwapProbe',
    })

    expect(compiled.deployedBytecode).toBe(SWAP_PROBE_RUNTIME)
  })
})
