import '../../support/env'
import { getBlock } from 'viem/actions'
import { describe, expect, it } from 'vitest'
import { publicClient } from '../../../lib/chain/clients'
import { findBlockAtTime } from '../../../lib/chain/findBlockAtTime'
import { blockSearch } from '../../../lib/chain/findBlockBefore'
import { db } from '../../../lib/db/client'
import { backfillBuckets } from '../../../lib/markets/priceGrains'
import { countRequests } from '../../support/requestCounters'

describe('the blocks before the boundaries of a backfill', () => {
  it('are the blocks before findBlockAtTime’s, found with a few reads each', async () => {
    // Prepare: the ~70 boundaries of a backfill on the devnet's year (its blocks are uneven:
    // days apart early in the year, minutes apart today).
    const client = publicClient('ethereum')
    const head = await getBlock(client, { blockTag: 'latest' })
    const latest = { number: head.number, timestamp: head.timestamp }
    const moments = [
      ...new Set(
        backfillBuckets(new Date(Number(head.timestamp) * 1000)).map(
          ({ start }) => start.getTime() / 1000,
        ),
      ),
    ].map(BigInt)
    const counter = countRequests(db())

    // Act
    const search = blockSearch(client, latest)
    const found = []
    for (const moment of moments) found.push(await search(moment))
    const reads = counter.take().rpc.calls
    counter.stop()

    // Assess: each is the block before the first at or after the moment.
    for (const [index, moment] of moments.entries()) {
      const first = await findBlockAtTime(client, { timestamp: moment, latest })
      const block = found[index]
      expect(block?.number).toBe(first - 1n)
      expect(block && block.timestamp < moment).toBe(true)
    }
    console.log(`${moments.length} boundaries below block ${head.number}: ${reads} block reads`)
    expect(reads).toBeLessThanOrEqual(moments.length * 4)
    // Before genesis there is none; past the head, the head.
    expect(await search(1n)).toBeUndefined()
    expect(await search(head.timestamp + 1n)).toEqual(latest)
  })
})
