import '../../support/env'
import { beforeAll, describe, expect, it } from 'vitest'
import { findBlockAtTime } from '../../../lib/chain/findBlockAtTime'
import { findDeploymentBlock } from '../../../lib/chain/findDeploymentBlock'
import { loadChainConfig } from '../../../lib/config'
import { readPools } from '../../../lib/routing/providers/readPools'
import { pairsWith } from '../../../lib/routing/providers/tokenPairs'
import { deployListedToken, type ListedToken } from '../../support/listedToken'
import { randomAddress } from '../../support/marketFixtures'
import { readClient } from '../../support/readClient'

const client = () => readClient('ethereum')

describe('chain reads of the market sync', () => {
  let token: ListedToken
  beforeAll(async () => {
    token = await deployListedToken({ nativePool: { tokens: 1_000n, ether: '1' } })
  })

  it('finds the block that deployed a contract, by bisection on its code', async () => {
    const latestBlock = await client().getBlockNumber({ cacheTime: 0 })

    const found = await findDeploymentBlock(client(), { address: token.address, latestBlock })
    const none = await findDeploymentBlock(client(), { address: randomAddress(), latestBlock })

    expect(found).toBe(token.deployBlock)
    expect(none).toBeUndefined()
  })

  it('finds the first block at or after a time', async () => {
    const block = await client().getBlock({ blockNumber: token.deployBlock })

    const found = await findBlockAtTime(client(), { timestamp: block.timestamp })
    const future = await findBlockAtTime(client(), { timestamp: block.timestamp + 10n ** 9n })

    const [foundBlock, previous] = await Promise.all([
      client().getBlock({ blockNumber: found }),
      client().getBlock({ blockNumber: found - 1n }),
    ])
    expect(found).toBeLessThanOrEqual(token.deployBlock)
    expect(foundBlock.timestamp).toBe(block.timestamp)
    expect(previous.timestamp).toBeLessThan(block.timestamp)
    expect(future).toBe((await client().getBlockNumber({ cacheTime: 0 })) + 1n)
  })

  it('finds the pools the token has against the known tokens, by the routing engine’s provider', async () => {
    const { wrappedNative, usdStablecoin } = loadChainConfig('ethereum')

    const pools = await readPools({
      network: 'ethereum',
      pairs: pairsWith([token.address], [wrappedNative, usdStablecoin]),
    })

    expect(pools).toHaveLength(1)
    const [first, second] = [token.address, wrappedNative]
      .map((address) => address.toLowerCase())
      .sort()
    const [pool] = pools
    expect(pool?.protocol).toBe('v2')
    expect([pool?.token0.toLowerCase(), pool?.token1.toLowerCase()]).toEqual([first, second])
  })
})
