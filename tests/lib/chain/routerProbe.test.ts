import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { ROUTER_PROBE_RUNTIME } from '../../../lib/chain/routerProbe'
import { compileSolidity } from '../../../lib/local/catalogTokenArtifact'

describe('RouterProbe', () => {
  it('is the committed runtime code of RouterProbe.sol, byte for byte', async () => {
    const source = await readFile(
      new URL('../../../lib/chain/RouterProbe.sol', import.meta.url),
      'utf8',
    )

    const compiled = await compileSolidity({
      sourceName: 'RouterProbe.sol',
      source,
      contractName: 'RouterProbe',
    })

    expect(compiled.deployedBytecode).toBe(ROUTER_PROBE_RUNTIME)
  })
})
