import { describe, expect, it } from 'vitest'
import { v3PoolAddress } from '../../../../lib/local/deployV3'
import {
  PANCAKE_V3_POOL_INIT_CODE_HASH,
  UNISWAP_V3_POOL_INIT_CODE_HASH,
} from '../../../../lib/local/v3Artifacts'

// The mainnet deployers and hashes serverless.yml configures, and well-known mainnet pools.
describe('v3PoolAddress', () => {
  it("finds Uniswap's USDC/WETH 0.05 % pool on Ethereum from the factory, in either token order", () => {
    const pool = {
      poolDeployer: '0x1F98431c8aD98523631AE4a59f267346ea31F984',
      poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
      fee: 500,
    } as const
    const usdc = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
    const weth = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'

    expect(v3PoolAddress({ ...pool, tokenA: usdc, tokenB: weth })).toBe(
      '0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640',
    )
    expect(v3PoolAddress({ ...pool, tokenA: weth, tokenB: usdc })).toBe(
      '0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640',
    )
  })

  it("finds PancakeSwap's WBNB/USDT 0.05 % pool on BNB Chain from the pool deployer", () => {
    expect(
      v3PoolAddress({
        poolDeployer: '0x41ff9AA7e16B8B1a8a8dc4f0eFacd93D02d071c9',
        poolInitCodeHash: PANCAKE_V3_POOL_INIT_CODE_HASH,
        tokenA: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
        tokenB: '0x55d398326f99059fF775485246999027B3197955',
        fee: 500,
      }),
    ).toBe('0x36696169C63e42cd08ce11f5deeBbCeBae652050')
  })
})
