import '../../support/env'
import { getBlockNumber } from 'viem/actions'
import { describe, expect, it } from 'vitest'
import { uniswapV2RouterAbi } from '../../../lib/chain/abis'
import { onChain } from '../../../lib/chain/chainError'
import { createChainClient } from '../../../lib/chain/clients'
import { loadChainConfig, NETWORK_NAMES } from '../../../lib/config'
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

  it('gives the two networks distinct chain ids, as their nodes answer them', async () => {
    const [ethereum, altchain] = await Promise.all(
      NETWORK_NAMES.map((network) => readClient(network).getChainId()),
    )
    expect([ethereum, altchain]).toEqual([31337, 31338])
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
})
