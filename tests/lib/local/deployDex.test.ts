import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  parseUnits,
  type PublicClient,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilNode, startAnvil } from '../../../lib/local/anvil'
import {
  ANVIL_DEPLOYER_PRIVATE_KEY,
  DEVNET_CHAIN_IDS,
  type DexDeployment,
  defineDevnetChain,
  deployDex,
  POOL_SIDE_USD,
} from '../../../lib/local/deployDex'
import { findFreePort } from '../../../lib/local/findFreePort'
import { privateKeyToAccount } from 'viem/accounts'
import { SAMPLE_CATALOG } from '../../../lib/local/sampleCatalog'
import { type NetworkName } from '../../../lib/networkNames'
import {
  loadUniswapV2Artifacts,
  UNISWAP_V2_PAIR_INIT_CODE_HASH,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV2Router02Abi,
} from '../../../lib/local/uniswapV2Artifacts'
import { TESTED_NETWORKS } from '../../support/networkCases'

const NETWORKS = TESTED_NETWORKS
const USDC_DECIMALS = 6

async function setup(network: NetworkName) {
  const chainId = DEVNET_CHAIN_IDS[network]
  const node = await startAnvil({ port: await findFreePort(), chainId })
  try {
    const deployment = await deployDex({ rpcUrl: node.rpcUrl, chainId, network })
    // A separate client, so every assertion reads the chain rather than deployDex's own state.
    const client = createPublicClient({ transport: http(node.rpcUrl) })
    return { node, deployment, client }
  } catch (error) {
    await node.stop()
    throw error
  }
}

/** Asserts |actual - expected| <= expected * bps / 10_000. */
function expectWithinBps(actual: bigint, expected: bigint, bps: bigint) {
  const diff = actual > expected ? actual - expected : expected - actual
  expect(diff * 10_000n <= expected * bps, `${actual} vs ${expected}`).toBe(true)
}

async function readReserves(client: PublicClient, pair: Address, base: Address) {
  const [token0, [reserve0, reserve1]] = await Promise.all([
    client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'token0' }),
    client.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' }),
  ])
  return token0.toLowerCase() === base.toLowerCase()
    ? { base: reserve0, quote: reserve1 }
    : { base: reserve1, quote: reserve0 }
}

describe('UniswapV2 npm artifacts', () => {
  it('agree on the pair init-code hash that Router02 hard-codes', () => {
    const { pair, router, factory } = loadUniswapV2Artifacts()

    expect(keccak256(pair.bytecode)).toBe(UNISWAP_V2_PAIR_INIT_CODE_HASH)
    expect(router.bytecode).toContain(UNISWAP_V2_PAIR_INIT_CODE_HASH.slice(2))
    expect(factory.bytecode).toContain(pair.bytecode.slice(2))
  })
})

describe.each(NETWORKS)('deployDex on %s', (network) => {
  const catalog = SAMPLE_CATALOG[network]
  let node: AnvilNode
  let deployment: DexDeployment
  let client: PublicClient

  beforeAll(async () => {
    ;({ node, deployment, client } = await setup(network))
  })

  afterAll(async () => {
    if (!node) return
    await node.stop()
    expect(() => process.kill(node.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }))
  })

  it('wires Router02 to the deployed factory and wrapped native coin', async () => {
    const [factory, weth] = await Promise.all([
      client.readContract({
        address: deployment.router,
        abi: uniswapV2Router02Abi,
        functionName: 'factory',
      }),
      client.readContract({
        address: deployment.router,
        abi: uniswapV2Router02Abi,
        functionName: 'WETH',
      }),
    ])

    expect(factory).toBe(deployment.factory)
    expect(weth).toBe(deployment.wrappedNative)
  })

  it('deploys a factory whose pair creation code hashes to the router constant', async () => {
    const { pair } = loadUniswapV2Artifacts()

    const [factoryCode, routerCode] = await Promise.all([
      client.getCode({ address: deployment.factory }),
      client.getCode({ address: deployment.router }),
    ])

    expect(factoryCode).toContain(pair.bytecode.slice(2))
    expect(routerCode).toContain(UNISWAP_V2_PAIR_INIT_CODE_HASH.slice(2))
  })

  it('creates every pair at the CREATE2 address derived from the init-code hash', async () => {
    for (const pair of deployment.pairs) {
      const onChain = await client.readContract({
        address: deployment.factory,
        abi: uniswapV2FactoryAbi,
        functionName: 'getPair',
        args: [pair.token0, pair.token1],
      })
      expect(onChain).toBe(pair.address)
    }
  })

  it('gives each token the name, symbol, decimals and supply of its catalog entry', async () => {
    const expected = [catalog.usdStablecoin, ...catalog.tokens]
    const addresses = [deployment.usdStablecoin, ...deployment.tokens.map((token) => token.address)]

    for (const [index, entry] of expected.entries()) {
      const address = addresses[index] as Address
      const read = <F extends 'name' | 'symbol' | 'decimals' | 'totalSupply'>(functionName: F) =>
        client.readContract({ address, abi: erc20Abi, functionName })
      const [name, symbol, decimals, totalSupply] = await Promise.all([
        read('name'),
        read('symbol'),
        read('decimals'),
        read('totalSupply'),
      ])
      expect({ name, symbol, decimals, totalSupply }).toEqual({
        name: entry.name,
        symbol: entry.symbol,
        decimals: entry.decimals,
        totalSupply: parseUnits(entry.circulatingSupply, entry.decimals),
      })
    }
  })

  it('prices every token/USDC pool at the catalog price', async () => {
    for (const token of deployment.tokens) {
      const pair = await client.readContract({
        address: deployment.factory,
        abi: uniswapV2FactoryAbi,
        functionName: 'getPair',
        args: [token.address, deployment.usdStablecoin],
      })
      expect(pair).not.toBe(zeroAddress)

      const reserves = await readReserves(client, pair, token.address)
      const usdcPerToken = (reserves.quote * 10n ** BigInt(token.decimals)) / reserves.base

      expectWithinBps(usdcPerToken, parseUnits(token.usdPrice, USDC_DECIMALS), 1n)
      expect(reserves.quote).toBe(POOL_SIDE_USD * 10n ** BigInt(USDC_DECIMALS))
    }
  })

  it('prices the wrapped-native/USDC pool at the native coin price', async () => {
    const pair = await client.readContract({
      address: deployment.factory,
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [deployment.wrappedNative, deployment.usdStablecoin],
    })

    const reserves = await readReserves(client, pair, deployment.wrappedNative)
    const usdcPerNative = (reserves.quote * 10n ** 18n) / reserves.base

    expectWithinBps(usdcPerNative, parseUnits(catalog.nativeCurrency.usdPrice, USDC_DECIMALS), 1n)
  })

  it('seeds a wrapped-native pool only for tokens marked pairedWithNative', async () => {
    for (const token of deployment.tokens) {
      const pair = await client.readContract({
        address: deployment.factory,
        abi: uniswapV2FactoryAbi,
        functionName: 'getPair',
        args: [token.address, deployment.wrappedNative],
      })
      expect(pair === zeroAddress, token.symbol).toBe(!token.pairedWithNative)
    }
    expect(deployment.tokens.some((token) => token.pairedWithNative)).toBe(true)
    expect(deployment.tokens.some((token) => !token.pairedWithNative)).toBe(true)
  })

  it('quotes token→USDC directly and token→wrapped native→USDC at the catalog price', async () => {
    for (const token of deployment.tokens) {
      // A hundredth of a token keeps price impact far below the tolerance.
      const amountIn = 10n ** BigInt(token.decimals) / 100n
      const value = parseUnits(token.usdPrice, USDC_DECIMALS) / 100n
      const quote = (path: Address[]) =>
        client.readContract({
          address: deployment.router,
          abi: uniswapV2Router02Abi,
          functionName: 'getAmountsOut',
          args: [amountIn, path],
        })

      const direct = await quote([token.address, deployment.usdStablecoin])
      // 0.3% LP fee per hop.
      expectWithinBps(direct.at(-1) ?? 0n, (value * 997n) / 1000n, 5n)

      if (token.pairedWithNative) {
        const viaNative = await quote([
          token.address,
          deployment.wrappedNative,
          deployment.usdStablecoin,
        ])
        expect(viaNative).toHaveLength(3)
        expectWithinBps(viaNative.at(-1) ?? 0n, (value * 997n * 997n) / 1_000_000n, 5n)
      }
    }
  })
  describe('the token zoo', () => {
    const zoo = (symbol: string) => {
      const token = deployment.zoo.find((candidate) => candidate.symbol === symbol)
      if (!token) throw new Error(`no ${symbol}`)
      return token
    }
    const pairWith = (token: Address, base: Address) =>
      client.readContract({
        address: deployment.factory,
        abi: uniswapV2FactoryAbi,
        functionName: 'getPair',
        args: [token, base],
      })

    it('has tokens of 0 and 24 decimals, each pooled with its one base token only', async () => {
      expect(deployment.zoo.map((token) => token.decimals).sort((a, b) => a - b)).toEqual([
        0, 6, 18, 24,
      ])
      for (const token of deployment.zoo) {
        const [decimals, withNative, withStablecoin] = await Promise.all([
          client.readContract({ address: token.address, abi: erc20Abi, functionName: 'decimals' }),
          pairWith(token.address, deployment.wrappedNative),
          pairWith(token.address, deployment.usdStablecoin),
        ])
        expect({ symbol: token.symbol, decimals, native: withNative !== zeroAddress }).toEqual({
          symbol: token.symbol,
          decimals: token.decimals,
          native: token.pooledWith === 'native',
        })
        expect(withStablecoin !== zeroAddress).toBe(token.pooledWith === 'stablecoin')
      }
    })

    it('has a USDT-style token: approve returns nothing and refuses non-zero to non-zero', async () => {
      const usdt = zoo('USDT').address
      const approve = (amount: bigint) =>
        client.call({
          account: deployment.deployer,
          to: usdt,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [deployment.router, amount],
          }),
        })

      // The deployer approved the router for the pools, so only a reset to 0 is accepted.
      await expect(approve(5n)).rejects.toThrow(/reset the allowance to 0 first/)
      expect((await approve(0n)).data).toBeUndefined()
    })

    it('has a fee-on-transfer token that burns 3% of a transfer', async () => {
      const fot = zoo('FOT')
      const to = '0x000000000000000000000000000000000000dEaD'
      const wallet = createWalletClient({
        account: privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY),
        chain: defineDevnetChain({ network, chainId: deployment.chainId, rpcUrl: node.rpcUrl }),
        transport: http(node.rpcUrl),
      })
      const supply = () =>
        client.readContract({ address: fot.address, abi: erc20Abi, functionName: 'totalSupply' })
      const balance = (owner: Address) =>
        client.readContract({
          address: fot.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [owner],
        })
      const [supplyBefore, senderBefore] = await Promise.all([
        supply(),
        balance(deployment.deployer),
      ])

      const hash = await wallet.writeContract({
        address: fot.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, parseUnits('1000', fot.decimals)],
      })
      expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')

      expect(await balance(to)).toBe(parseUnits('970', fot.decimals))
      expect(senderBefore - (await balance(deployment.deployer))).toBe(
        parseUnits('1000', fot.decimals),
      )
      expect(supplyBefore - (await supply())).toBe(parseUnits('30', fot.decimals))
    })

    it('links pools on different bases in 3 hops and no fewer', async () => {
      const [whole, deep] = [zoo('WHOLE').address, zoo('DEEP').address]
      const { usdStablecoin: usdc, wrappedNative: weth } = deployment
      const amountsOut = (path: Address[]) =>
        client.readContract({
          address: deployment.router,
          abi: uniswapV2Router02Abi,
          functionName: 'getAmountsOut',
          args: [4n, path],
        })

      for (const shorter of [
        [whole, deep],
        [whole, usdc, deep],
        [whole, weth, deep],
      ]) {
        await expect(amountsOut(shorter)).rejects.toThrow()
      }
      expect((await amountsOut([whole, usdc, weth, deep])).at(-1)).toBeGreaterThan(0n)
    })
  })
})
