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
