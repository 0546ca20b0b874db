import '../../support/env'
import { describe, expect, it } from 'vitest'
import { getProjectMarket } from '../../../lib/db/marketStats'
import { catalogEntry, createProject } from '../../support/marketFixtures'

describe('catalog projects', () => {
  // The project route answers the stored address as is (no keccak on its cold path), so the
  // write is where the checksum is made.
  it('stores the address checksummed, whatever case the catalog wrote it in', async () => {
    const checksummed = catalogEntry().address
    expect(checksummed).not.toBe(checksummed.toLowerCase())

    const project = await createProject({ address: checksummed.toLowerCase() })

    expect(project.address).toBe(checksummed)
    expect((await getProjectMarket(project.id))?.project.address).toBe(checksummed)
  })
})
