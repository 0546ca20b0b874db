import { describe, expect, it } from 'vitest'
import { NETWORK_NAMES, parseServedNetworks } from '../../../../lib/networkNames'
import { keepServedNetworks } from '../../../../lib/serverless/servedNetworks'
import type { FunctionObject, Serverless } from '../../../../lib/serverless/serverlessTypes'

// NETWORKS (DECISIONS §9.5): which networks of the table a stage serves, and what the deploy
// rules make of the service for them before any command reads it: each network operation's
// block a function per served network, the others' left out.

class FrameworkError extends Error {}

function service(servedNetworks: string | undefined, stage = 'prod') {
  const functions: Record<string, FunctionObject> = {
    listNetworks: { name: `wallet-backend-${stage}-listNetworks`, access: { table: ['Query'] } },
    getWalletBalances: {
      name: `wallet-backend-${stage}-getWalletBalances`,
      access: { table: ['GetItem'], parameters: ['jwtSecret', 'servedRpcUrls'] },
    },
    // Network operations' blocks, as serverless.yml declares them.
    quote: {
      name: `wallet-backend-${stage}-quote`,
      handler: 'functions/swap/quote.handler',
      perNetwork: true,
      access: { table: ['UpdateItem'], parameters: ['networkRpcUrl'] },
    },
    swapNative: {
      name: `wallet-backend-${stage}-swapNative`,
      handler: 'functions/swap/swapNative.handler',
      perNetwork: true,
      access: { parameters: ['jwtSecret', 'networkRpcUrl'] },
    },
  }
  const serverless = {
    classes: { Error: FrameworkError },
    service: {
      service: 'wallet-backend',
      functions,
      custom: {
        servedNetworks,
        parameters: { jwtSecret: '/wallet-backend/prod/jwt-secret' },
        operations: {
          durationAlarms: {
            moneyMoving: { functions: ['swapNative', 'listNetworks'], p99Milliseconds: 1 },
          },
        },
      },
      provider: {
        stage,
        environment: {
          NETWORKS: servedNetworks ?? '',
          // A variable of a network the stage does not serve is left out.
          ALTCHAIN_TRACE_INTERNAL: 'true',
          STAGE: stage,
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
  it("make each operation's block a function per served network, and leave out the others", () => {
    const { serverless, functions } = service('ethereum')

    expect(keepServedNetworks(serverless)).toEqual(['ethereum'])
    expect(Object.keys(functions)).toEqual(['listNetworks', 'getWalletBalances', 'quoteEthereum'])
    expect(functions.quoteEthereum).toEqual({
      name: 'wallet-backend-prod-quoteEthereum',
      handler: 'functions/swap/quote.handler',
      network: 'ethereum',
      environment: { NETWORK: 'ethereum' },
      access: { table: ['UpdateItem'], parameters: ['ethereumRpcUrl'] },
      events: [{ httpApi: { method: 'GET', path: '/api/v1/swap/quote/ethereum' } }],
    })
    expect(functions.getWalletBalances?.access?.parameters).toEqual(['jwtSecret', 'ethereumRpcUrl'])
    // The table gives the rest: the functions' only network variable is the RPC URL parameter.
    expect(serverless.service.provider.environment).toEqual({
      NETWORKS: 'ethereum',
      STAGE: 'prod',
      ETHEREUM_RPC_URL_PARAMETER: '/wallet-backend/prod/ethereum-rpc-url',
    })
    expect(serverless.service.custom?.parameters).toMatchObject(
      Object.fromEntries(
        NETWORK_NAMES.map((network) => [
          `${network}RpcUrl`,
          `/wallet-backend/prod/${network}-rpc-url`,
        ]),
      ),
    )
    // The native swap route is altchain's shape: no function of it on ethereum, no alarm entry.
    expect(serverless.service.custom?.operations?.durationAlarms?.moneyMoving?.functions).toEqual([
      'listNetworks',
    ])
  })

  it("give a stage serving every network each one's functions, in the table's order", () => {
    const { serverless, functions } = service(NETWORK_NAMES.join(','))

    keepServedNetworks(serverless)

    expect(Object.keys(functions)).toEqual([
      'listNetworks',
      'getWalletBalances',
      'quoteEthereum',
      'quoteAltchain',
      'swapNativeAltchain',
      ...NETWORK_NAMES.slice(2).map(
        (network) => `quote${network[0]?.toUpperCase()}${network.slice(1)}`,
      ),
    ])
    expect(functions.getWalletBalances?.access?.parameters).toEqual([
      'jwtSecret',
      ...NETWORK_NAMES.map((network) => `${network}RpcUrl`),
    ])
    expect(functions.swapNativeAltchain?.access?.parameters).toEqual([
      'jwtSecret',
      'altchainRpcUrl',
    ])
    expect(serverless.service.custom?.operations?.durationAlarms?.moneyMoving?.functions).toEqual([
      'swapNativeAltchain',
      'listNetworks',
    ])
    expect(serverless.service.provider.environment).toHaveProperty(
      'ALTCHAIN_RPC_URL_PARAMETER',
      '/wallet-backend/prod/altchain-rpc-url',
    )
  })

  it("pass the local stage the served devnets' variables `npm start` set, and nothing else", () => {
    const { serverless } = service('ethereum', 'local')
    const set = {
      ETHEREUM_ROUTER: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      ETHEREUM_RPC_URL: 'http://127.0.0.1:8545',
      ALTCHAIN_ROUTER: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      ETHEREUM_SOMETHING_ELSE: 'x',
    }
    const before = { ...process.env }
    Object.assign(process.env, set)
    try {
      keepServedNetworks(serverless)
    } finally {
      for (const name of Object.keys(set)) {
        if (before[name] === undefined) delete process.env[name]
        else process.env[name] = before[name]
      }
    }

    expect(serverless.service.provider.environment).toMatchObject({
      ETHEREUM_ROUTER: set.ETHEREUM_ROUTER,
      ETHEREUM_RPC_URL: set.ETHEREUM_RPC_URL,
    })
    expect(serverless.service.provider.environment).not.toHaveProperty('ALTCHAIN_ROUTER')
    expect(serverless.service.provider.environment).not.toHaveProperty('ETHEREUM_SOMETHING_ELSE')
  })

  it("fail with the framework's error on an unknown name", () => {
    const { serverless } = service('ethereum,polygon')

    expect(() => keepServedNetworks(serverless)).toThrow(FrameworkError)
    expect(() => keepServedNetworks(serverless)).toThrow(/polygon.*docs\/operations\.md, A network/)
  })
})
