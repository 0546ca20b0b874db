import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { DEFAULT_NETWORKS, NETWORK_ENTRIES } from '../../../../lib/networks'
import { v2PairAddress, v3PoolAddress } from '../../../../lib/openapi/networkExamples'

// The network table (lib/networks.ts, DECISIONS §9.5): one entry per network, each unambiguous.

const entries = Object.entries(NETWORK_ENTRIES)

function addressesOf(value: unknown): string[] {
  if (typeof value === 'string') return /^0x[0-9a-fA-F]{40}$/.test(value) ? [value] : []
  if (Array.isArray(value)) return value.flatMap(addressesOf)
  if (value && typeof value === 'object') return Object.values(value).flatMap(addressesOf)
  return []
}

describe('the network table', () => {
  it('gives each network its own chain ids and devnet port', () => {
    const unique = (values: number[]) => new Set(values).size === values.length
    expect(unique(entries.map(([, entry]) => entry.deployed.chainId))).toBe(true)
    expect(unique(entries.map(([, entry]) => entry.devnet.chainId))).toBe(true)
    expect(unique(entries.map(([, entry]) => entry.devnet.port))).toBe(true)
    // Devnet chain ids are never a deployed network's: a devnet signature cannot replay there.
    const deployed = new Set(entries.map(([, entry]) => entry.deployed.chainId))
    expect(entries.filter(([, entry]) => deployed.has(entry.devnet.chainId))).toEqual([])
  })

  it('writes every address with its EIP-55 checksum', () => {
    const addresses = entries.flatMap(([, entry]) => addressesOf(entry.deployed))
    // Wrapped coin, stablecoin, V2 factory and router, V3 factory and deployer, router, connectors.
    expect(addresses.length).toBeGreaterThanOrEqual(entries.length * 10)
    expect(addresses.filter((address) => getAddress(address) !== address)).toEqual([])
  })

  it("keeps the interface's two networks the default and names routes only lowercase", () => {
    expect(DEFAULT_NETWORKS).toEqual(['ethereum', 'altchain'])
    expect(entries.every(([name]) => /^[a-z][a-z0-9]*$/.test(name))).toBe(true)
  })

  it('derives the pool and pair addresses the DEXes deployed, from factory and init code hash', () => {
    // The chains' own pools, as block explorers list them: WETH/USDC on Uniswap V3 (0.05 %) and
    // V2 on Ethereum and on Base, CAKE/WBNB on PancakeSwap V3 (0.25 %, from its pool deployer)
    // and WBNB/CAKE on its V2.
    const { ethereum, altchain, base } = NETWORK_ENTRIES
    const cake = '0x0E09FaBB73Bd3Ade0a17ECC321fD13a19e81cE82'
    expect(
      v3PoolAddress(
        ethereum.deployed.v3,
        ethereum.deployed.wrappedNative,
        ethereum.deployed.usdStablecoin,
        500,
      ),
    ).toBe('0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640')
    expect(
      v2PairAddress(
        ethereum.deployed.v2,
        ethereum.deployed.usdStablecoin,
        ethereum.deployed.wrappedNative,
      ),
    ).toBe('0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc')
    expect(
      v3PoolAddress(
        base.deployed.v3,
        base.deployed.wrappedNative,
        base.deployed.usdStablecoin,
        500,
      ),
    ).toBe('0xd0b53D9277642d899DF5C87A3966A349A798F224')
    expect(
      v2PairAddress(base.deployed.v2, base.deployed.wrappedNative, base.deployed.usdStablecoin),
    ).toBe('0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C')
    expect(v3PoolAddress(altchain.deployed.v3, cake, altchain.deployed.wrappedNative, 2500)).toBe(
      '0x133B3D95bAD5405d14d53473671200e9342896BF',
    )
    expect(v2PairAddress(altchain.deployed.v2, altchain.deployed.wrappedNative, cake)).toBe(
      '0x0eD7e52944161450477ee417DE9Cd3a859b14fD0',
    )
  })
})
