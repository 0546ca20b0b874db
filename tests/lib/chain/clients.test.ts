import '../../support/env'
import { createServer, type Socket } from 'node:net'
import { getBalance, getBlockNumber } from 'viem/actions'
import { describe, expect, it } from 'vitest'
import { uniswapV2RouterAbi } from '../../../lib/chain/abis'
import { onChain } from '../../../lib/chain/chainError'
import { createChainClient } from '../../../lib/chain/clients'
import { rpcRequestChannel } from '../../support/rpcChannels'
import { loadChainConfig } from '../../../lib/config'
import { NETWORK_NAMES, NETWORKS } from '../../../lib/networkNames'
import { ChainUnavailable } from '../../../lib/errors'
import { findFreePort } from '../../../lib/local/findFreePort'
import { readClient } from '../../support/readClient'

describe('chain clients', () => {
  it.each(NETWORK_NAMES)(
    'reaches the %s devnet with the configured chain id and DEX',
    async (network) => {
      const config = loadChainConfig(network)
      const client = readClient(network)

      const [chainId, factory, wrappedNative] = await Promise.all([
        client.getChainId(),
        client.readContract({
          address: config.router,
          abi: uniswapV2RouterAbi,
          functionName: 'factory',
        }),
        client.readContract({
          address: config.router,
          abi: uniswapV2RouterAbi,
          functionName: 'WETH',
        }),
      ])

      expect(chainId).toBe(config.chainId)
      expect(factory).toBe(config.factory)
      expect(wrappedNative).toBe(config.wrappedNative)
    },
  )

  it('gives each network its devnet chain id from the table, as its node answers it', async () => {
    const chainIds = await Promise.all(
      NETWORK_NAMES.map((network) => readClient(network).getChainId()),
    )
    expect(chainIds).toEqual(NETWORK_NAMES.map((network) => NETWORKS[network].devnet.chainId))
    expect(new Set(chainIds).size).toBe(NETWORK_NAMES.length)
  })

  it('sends a batch over the provider cap (<NET>_RPC_BATCH_MAX) as several arrays, all answered', async () => {
    const config = loadChainConfig('ethereum')
    const client = createChainClient({ ...config, rpcBatchMax: 2 })
    const posts: number[] = []
    const onPost = (text: unknown) => {
      const body: unknown = JSON.parse(String(text))
      posts.push(Array.isArray(body) ? body.length : 1)
    }
    rpcRequestChannel.subscribe(onPost)
    try {
      // Five calls in one tick: arrays of 2, 2 and 1, each answered as the node answers it.
      const accounts = [1, 2, 3, 4, 5].map(
        (index) => `0x${index.toString(16).padStart(40, '0')}` as const,
      )
      const [answered, expected] = await Promise.all([
        Promise.all(accounts.map((address) => getBalance(client, { address }))),
        Promise.all(accounts.map((address) => readClient('ethereum').getBalance({ address }))),
      ])
      expect(posts.slice(0, 3)).toEqual([2, 2, 1])
      expect(answered).toEqual(expected)
    } finally {
      rpcRequestChannel.unsubscribe(onPost)
    }
  })

  it('turns an unreachable node into ChainUnavailable (502)', async () => {
    const port = await findFreePort()
    const client = createChainClient({
      ...loadChainConfig('ethereum'),
      rpcUrl: `http://127.0.0.1:${port}`,
    })

    const failure = await onChain('ethereum', () => getBlockNumber(client)).catch(
      (error: unknown) => error,
    )

    expect(failure).toBeInstanceOf(ChainUnavailable)
    expect(failure).toMatchObject({ status: 502, code: 502 })
  })

  it('turns a node that accepts and never answers into ChainUnavailable after the timeout and one retry', async () => {
    const sockets: Socket[] = []
    const silent = createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    const client = createChainClient({
      ...loadChainConfig('ethereum'),
      rpcUrl: `http://127.0.0.1:${port}`,
    })
    const posts: unknown[] = []
    const onPost = (body: unknown) => posts.push(body)
    rpcRequestChannel.subscribe(onPost)
    try {
      const failure = await onChain('ethereum', () => getBlockNumber(client)).catch(
        (error: unknown) => error,
      )
      expect(failure).toBeInstanceOf(ChainUnavailable)
      // Two attempts (the timeout and its one retry): the bound the 502 promise rests on.
      expect(posts).toHaveLength(2)
    } finally {
      rpcRequestChannel.unsubscribe(onPost)
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })

  it('sends the calls made in one tick as one POST and reuses the connection for the next', async () => {
    const client = createChainClient(loadChainConfig('ethereum'))
    const posts: string[] = []
    const onPost = (body: unknown) => posts.push(String(body))
    rpcRequestChannel.subscribe(onPost)
    try {
      const [first, second] = await Promise.all([
        getBlockNumber(client),
        client.request({ method: 'eth_chainId' }),
      ])
      const third = await client.request({ method: 'eth_chainId' })
      expect(typeof first).toBe('bigint')
      expect(second).toBe(third)
      expect(posts).toHaveLength(2)
      expect((JSON.parse(posts[0] ?? '') as unknown[]).length).toBe(2)
    } finally {
      rpcRequestChannel.unsubscribe(onPost)
    }
  })
})
