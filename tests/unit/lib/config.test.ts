import { afterEach, describe, expect, it, vi } from 'vitest'

// Each case loads lib/config.ts afresh: its sections are parsed once per process.
async function loadAltchainConfig(env: Record<string, string>) {
  vi.resetModules()
  vi.stubEnv('ALTCHAIN_CHAIN_ID', '56')
  vi.stubEnv('ALTCHAIN_RPC_URL', 'http://127.0.0.1:8546')
  vi.stubEnv('ALTCHAIN_ROUTER', '0x10ED43C718714eb63d5aA57B78B54704E256024E')
  vi.stubEnv('ALTCHAIN_FACTORY', '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73')
  vi.stubEnv('ALTCHAIN_WRAPPED_NATIVE', '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c')
  vi.stubEnv('ALTCHAIN_USD_STABLECOIN', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d')
  for (const key of [...V3_KEYS, 'ALTCHAIN_SWAP_ROUTER', 'ALTCHAIN_ARCHIVE_RPC_URL', 'STAGE']) {
    vi.stubEnv(key, env[key] ?? '')
  }
  const { loadChainConfig } = await import('../../../lib/config')
  return () => loadChainConfig('altchain')
}

const V3_KEYS = [
  'ALTCHAIN_V3_FACTORY',
  'ALTCHAIN_V3_POOL_DEPLOYER',
  'ALTCHAIN_V3_POOL_INIT_CODE_HASH',
  'ALTCHAIN_V3_FEE_TIERS',
]

const PANCAKE_V3 = {
  ALTCHAIN_V3_FACTORY: '0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865',
  ALTCHAIN_V3_POOL_DEPLOYER: '0x41ff9AA7e16B8B1a8a8dc4f0eFacd93D02d071c9',
  ALTCHAIN_V3_POOL_INIT_CODE_HASH:
    '0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2',
  ALTCHAIN_V3_FEE_TIERS: '100,500,2500,10000',
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the V3 settings of a network', () => {
  it('reads the V3 DEX and the swap router when they are set', async () => {
    const config = await loadAltchainConfig({
      ...PANCAKE_V3,
      ALTCHAIN_SWAP_ROUTER: '0x13f4EA83D0bd40E75C8222255bc855a974568Dd4',
    })

    expect(config()).toMatchObject({
      v3: {
        factory: PANCAKE_V3.ALTCHAIN_V3_FACTORY,
        poolDeployer: PANCAKE_V3.ALTCHAIN_V3_POOL_DEPLOYER,
        poolInitCodeHash: PANCAKE_V3.ALTCHAIN_V3_POOL_INIT_CODE_HASH,
        feeTiers: [100, 500, 2500, 10000],
      },
      swapRouter: '0x13f4EA83D0bd40E75C8222255bc855a974568Dd4',
    })
  })

  it('leaves a network V2-only when none is set (serverless writes them as empty)', async () => {
    const config = await loadAltchainConfig({})

    expect(config().v3).toBeUndefined()
    expect(config().swapRouter).toBeUndefined()
    expect(config().router).toBe('0x10ED43C718714eb63d5aA57B78B54704E256024E')
  })

  it('refuses some of the V3 settings without the others, naming them', async () => {
    const config = await loadAltchainConfig({
      ALTCHAIN_V3_FACTORY: PANCAKE_V3.ALTCHAIN_V3_FACTORY,
      ALTCHAIN_V3_FEE_TIERS: PANCAKE_V3.ALTCHAIN_V3_FEE_TIERS,
    })

    expect(config).toThrow(
      'ALTCHAIN_V3_FACTORY: set all of ALTCHAIN_V3_FACTORY, ALTCHAIN_V3_POOL_DEPLOYER, ALTCHAIN_V3_POOL_INIT_CODE_HASH, ALTCHAIN_V3_FEE_TIERS or none',
    )
  })

  it.each([
    ['ALTCHAIN_V3_POOL_INIT_CODE_HASH', '0x6ce8eb47', 'must be a 0x-prefixed 32-byte hash'],
    ['ALTCHAIN_V3_FEE_TIERS', '100, 500', 'comma-separated fees'],
    ['ALTCHAIN_V3_POOL_DEPLOYER', 'pancake', 'must be a 0x-prefixed 20-byte address'],
  ])('refuses a malformed %s', async (key, value, message) => {
    const config = await loadAltchainConfig({ ...PANCAKE_V3, [key]: value })

    expect(config).toThrow(`${key}: ${message}`)
  })
})

describe('the archive node of a network', () => {
  it('is the devnet itself on the local stage, when none is set', async () => {
    const config = await loadAltchainConfig({ STAGE: 'local' })

    expect(config().archiveRpcUrl).toBe('http://127.0.0.1:8546')
  })

  it('is absent on a deployed stage unless set', async () => {
    const unset = await loadAltchainConfig({ STAGE: 'prod' })
    expect(unset().archiveRpcUrl).toBeUndefined()

    const set = await loadAltchainConfig({
      STAGE: 'prod',
      ALTCHAIN_ARCHIVE_RPC_URL: 'https://archive.example/v1/key',
    })
    expect(set().archiveRpcUrl).toBe('https://archive.example/v1/key')
  })

  it('refuses a value that is not a URL, without quoting it', async () => {
    const config = await loadAltchainConfig({ ALTCHAIN_ARCHIVE_RPC_URL: 'secret-key-123' })

    expect(config).toThrow('ALTCHAIN_ARCHIVE_RPC_URL')
    expect(config).not.toThrow('secret-key-123')
  })
})

// The network table is what runs (issue 42): a network's settings are its entry's, for the stage,
// and a variable only overrides one of them or carries the RPC URLs.
async function loadOnly(env: Record<string, string>) {
  vi.resetModules()
  const { chainVariables } = await import('../../../lib/config/chainSchema')
  for (const variable of [...chainVariables('altchain'), 'STAGE', 'NETWORKS', 'NETWORK']) {
    vi.stubEnv(variable, env[variable] ?? '')
  }
  return import('../../../lib/config')
}

describe("a network's settings", () => {
  it("are its table entry's on a deployed stage, given only where its RPC URLs are", async () => {
    const { NETWORK_ENTRIES } = await import('../../../lib/networks')
    const { deployed, gas } = NETWORK_ENTRIES.altchain
    const { loadChainConfig } = await loadOnly({
      STAGE: 'prod',
      ALTCHAIN_RPC_URL_PARAMETER: '/wallet-backend/prod/altchain-rpc-url',
    })

    expect(loadChainConfig('altchain')).toMatchObject({
      chainId: 56,
      rpcUrls: [],
      rpcUrlParameter: '/wallet-backend/prod/altchain-rpc-url',
      router: deployed.v2.router,
      factory: deployed.v2.factory,
      wrappedNative: deployed.wrappedNative,
      usdStablecoin: deployed.usdStablecoin,
      baseTokens: [deployed.wrappedNative, deployed.usdStablecoin],
      v3: {
        factory: deployed.v3.factory,
        poolDeployer: deployed.v3.poolDeployer,
        poolInitCodeHash: deployed.v3.poolInitCodeHash,
        feeTiers: deployed.v3.feeTiers,
      },
      swapRouter: deployed.swapRouter,
      connectorTokens: deployed.connectorTokens,
      confirmations: 15,
      v2FeeBps: 25,
      gasUnits: expect.objectContaining({ swap: BigInt(gas.swap), v3Hop: BigInt(gas.v3Hop) }),
    })
  })

  it('take a variable over the entry, one setting at a time', async () => {
    const { NETWORK_ENTRIES } = await import('../../../lib/networks')
    const { loadChainConfig } = await loadOnly({
      STAGE: 'prod',
      ALTCHAIN_RPC_URL_PARAMETER: '/x/altchain-rpc-url',
      ALTCHAIN_CONFIRMATIONS: '3',
      ALTCHAIN_GAS_PER_TICK_CROSSED: '61000',
    })

    expect(loadChainConfig('altchain')).toMatchObject({
      confirmations: 3,
      router: NETWORK_ENTRIES.altchain.deployed.v2.router,
      gasUnits: expect.objectContaining({ tickCrossed: 61_000n }),
    })
  })

  it("are the devnet's on the local stage: its chain id and port, no confirmations", async () => {
    const { loadChainConfig } = await loadOnly({
      STAGE: 'local',
      ALTCHAIN_ROUTER: '0x10ED43C718714eb63d5aA57B78B54704E256024E',
      ALTCHAIN_FACTORY: '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73',
      ALTCHAIN_WRAPPED_NATIVE: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
      ALTCHAIN_USD_STABLECOIN: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
    })

    expect(loadChainConfig('altchain')).toMatchObject({
      chainId: 31338,
      rpcUrls: ['http://127.0.0.1:8546'],
      confirmations: 0,
      // The devnets run Uniswap V2's pair on every network.
      v2FeeBps: 30,
    })
  })

  it('fail on a deployed stage that names no RPC URL or parameter, naming the variables', async () => {
    const { loadChainConfig } = await loadOnly({ STAGE: 'prod' })

    expect(() => loadChainConfig('altchain')).toThrow(
      'set ALTCHAIN_RPC_URL (local) or ALTCHAIN_RPC_URL_PARAMETER',
    )
  })
})

describe('NETWORKS and NETWORK', () => {
  it('parse NETWORKS as the deploy rules do, refusing a name the table lacks', async () => {
    const served = await loadOnly({ NETWORKS: 'altchain' })
    expect(served.loadServedNetworks()).toEqual(['altchain'])

    const unknown = await loadOnly({ NETWORKS: 'ethereum,solana' })
    expect(() => unknown.loadServedNetworks()).toThrow(/NETWORKS names solana/)
  })

  it("read a network operation's function's network, and refuse none or an unknown one", async () => {
    expect((await loadOnly({ NETWORK: 'base' })).loadFunctionNetwork()).toBe('base')
    for (const network of ['', 'solana']) {
      const config = await loadOnly({ NETWORK: network })
      expect(() => config.loadFunctionNetwork()).toThrow(/NETWORK must name a network of the table/)
    }
  })
})
