import { describe, expect, it } from 'vitest'
import { NETWORK_NAMES } from '../../../../lib/networkNames'
import { parseServedNetworks } from '../../../../lib/networks/servedNetworks'
import { keepServedNetworks } from '../../../../lib/serverless/servedNetworks'
import type { FunctionObject, Serverless } from '../../../../lib/serverless/serverlessTypes'

// NETWORKS (DECISIONS §9.5): which networks of the table a stage serves, and what the deploy
// rules leave out of the service for the others before any command reads it.

class FrameworkError extends Error {}

function service(servedNetworks: string | undefined) {
  const functions: Record<string, FunctionObject> = {
    listNetworks: { name: 'listNetworks', access: { table: ['Query'] } },
    getWalletBalances: {
      name: 'getWalletBalances',
      access: { table: ['GetItem'], parameters: ['jwtSecret', 'servedRpcUrls'] },
    },
    quoteEthereum: {
      name: 'quoteEthereum',
      network: 'ethereum',
      access: { parameters: ['ethereumRpcUrl'] },
    },
    quoteAltchain: {
      name: 'quoteAltchain',
      network: 'altchain',
      access: { parameters: ['altchainRpcUrl'] },
    },
    swapNativeAltchain: { name: 'swapNativeAltchain', network: 'altchain', access: {} },
  }
  const serverless = {
    classes: { Error: FrameworkError },
    service: {
      functions,
      custom: {
        servedNetworks,
        operations: {
          durationAlarms: {
            moneyMoving: { functions: ['swapNativeAltchain', 'quoteEthereum'], p99Milliseconds: 1 },
          },
        },
      },
      provider: {
        environment: {
          NETWORKS: servedNetworks ?? '',
          ETHEREUM_CHAIN_ID: '1',
          ALTCHAIN_CHAIN_ID: '56',
          ALTCHAIN_RPC_URL_PARAMETER: '/x/altchain-rpc-url',
          STAGE: 'prod',
        },
      },
    },
  } as unknown as Serverless
  return { serverless, functions }
}

describe('NETWORKS', () => {
  it("names networks of the table, in the table's order; unset or blank, the interface's two", () => {
    expect(parseServedNetworks('altchain, ethereum')).toEqual(['ethereum', 'altchain'])
    expect(parseServedNetworks('altchain')).toEqual(['altchain'])
    expect(parseServedNetworks([...NETWORK_NAMES].reverse().join(','))).toEqual(NETWORK_NAMES)
    expect(parseServedNetworks(undefined)).toEqual(['ethereum', 'altchain'])
    expect(parseServedNetworks('  ')).toEqual(['ethereum', 'altchain'])
  })

  it('refuses a name the table lacks, naming it and the table', () => {
    expect(() => parseServedNetworks('ethereum,solana')).toThrow(
      `NETWORKS names solana, not in the network table (lib/networks.ts: ${NETWORK_NAMES.join(', ')})`,
    )
    expect(() => parseServedNetworks('Ethereum')).toThrow(/names Ethereum/)
  })
})

describe('the deploy rules', () => {
  it("leave out another network's functions, settings and alarm entries, and name the served RPC URLs", () => {
    const { serverless, functions } = service('ethereum')

    expect(keepServedNetworks(serverless)).toEqual(['ethereum'])
    expect(Object.keys(functions).sort()).toEqual([
      'getWalletBalances',
      'listNetworks',
      'quoteEthereum',
    ])
    expect(functions.getWalletBalances?.access?.parameters).toEqual(['jwtSecret', 'ethereumRpcUrl'])
    expect(serverless.service.provider.environment).toEqual({
      NETWORKS: 'ethereum',
      ETHEREUM_CHAIN_ID: '1',
      STAGE: 'prod',
    })
    expect(serverless.service.custom?.operations?.durationAlarms?.moneyMoving?.functions).toEqual([
      'quoteEthereum',
    ])
  })

  it('keep every network a stage serving them all names', () => {
    const { serverless, functions } = service(NETWORK_NAMES.join(','))

    keepServedNetworks(serverless)

    expect(Object.keys(functions)).toHaveLength(5)
    expect(functions.getWalletBalances?.access?.parameters).toEqual([
      'jwtSecret',
      ...NETWORK_NAMES.map((network) => `${network}RpcUrl`),
    ])
    expect(serverless.service.provider.environment).toHaveProperty('ALTCHAIN_CHAIN_ID', '56')
  })

  it("fail with the framework's error on an unknown name", () => {
    const { serverless } = service('ethereum,polygon')

    expect(() => keepServedNetworks(serverless)).toThrow(FrameworkError)
    expect(() => keepServedNetworks(serverless)).toThrow(/polygon.*docs\/operations\.md, A network/)
  })
})
