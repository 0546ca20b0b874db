import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { CurrencyAmount, Token } from '@uniswap/sdk-core'
import { Pool, type TickConstructorArgs } from '@uniswap/v3-sdk'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  maxUint256,
  parseAbi,
  parseAbiItem,
  parseEther,
  parseUnits,
  type PublicClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uniswapV2PairAbi, uniswapV2RouterAbi } from '../../../lib/chain/abis'
import { type AnvilNode, startAnvil } from '../../../lib/local/anvil'
import {
  ANVIL_DEPLOYER_PRIVATE_KEY,
  DEVNET_CHAIN_IDS,
  type DexDeployment,
  defineDevnetChain,
  deployDex,
} from '../../../lib/local/deployDex'
import { type DeployedV3Pool, v3PoolAddress } from '../../../lib/local/deployV3'
import { findFreePort } from '../../../lib/local/findFreePort'
import { SAMPLE_CATALOG } from '../../../lib/local/sampleCatalog'
import { NETWORK_TABLE } from '../../../lib/networks'
import {
  loadPancakeV3Artifacts,
  loadUniswapV3Artifacts,
  PANCAKE_V3_POOL_INIT_CODE_HASH,
  quoterV2Abi,
  swapRouter02Abi,
  UNISWAP_V3_POOL_INIT_CODE_HASH,
  v3FactoryAbi,
  v3PoolAbi,
} from '../../../lib/local/v3Artifacts'
import { devnetTransport } from '../../support/devnetTransport'
import { byCatalog, catalogOf, TESTED_NETWORKS } from '../../support/networkCases'

const NETWORKS = TESTED_NETWORKS
// SwapRouter02's recipient flags (swap-router-contracts' Constants.sol).
const MSG_SENDER = '0x0000000000000000000000000000000000000001'
const ADDRESS_THIS = '0x0000000000000000000000000000000000000002'
const CONTRACT_BALANCE = 0n
// ZooTokens.sol's FeeOnTransferToken burns this share of every transfer.
const FEE_ON_TRANSFER_BPS = 300n
const require = createRequire(import.meta.url)

// What a stranger would call to make the router, the seeder or the pool deployer act for a pool.
const forgedCallsAbi = parseAbi([
  'function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes data)',
  'function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes data)',
  'function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes data)',
  'function pancakeV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes data)',
  'function deploy(address factory, address token0, address token1, uint24 fee, int24 tickSpacing) returns (address pool)',
  'function setFactoryAddress(address factory)',
])

const mintEvent = parseAbiItem(
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
)

describe('V3 npm artifacts', () => {
  it('hash to the init code hashes the periphery libraries hard-code', async () => {
    const uniswap = loadUniswapV3Artifacts()
    const pancake = await loadPancakeV3Artifacts()
    const pancakePoolAddress = readFileSync(
      require.resolve('@pancakeswap/v3-periphery/contracts/libraries/PoolAddress.sol'),
      'utf8',
    )
    const uniswapPoolAddress = readFileSync(
      require.resolve('@uniswap/v3-periphery/contracts/libraries/PoolAddress.sol'),
      'utf8',
    )

    expect(keccak256(uniswap.pool.bytecode)).toBe(UNISWAP_V3_POOL_INIT_CODE_HASH)
    expect(keccak256(pancake.pool.bytecode)).toBe(PANCAKE_V3_POOL_INIT_CODE_HASH)
    expect(uniswapPoolAddress).toContain(UNISWAP_V3_POOL_INIT_CODE_HASH)
    expect(pancakePoolAddress).toContain(PANCAKE_V3_POOL_INIT_CODE_HASH)
    // SwapRouter02 and QuoterV2 derive pools with the same constant.
    expect(uniswap.swapRouter.bytecode).toContain(UNISWAP_V3_POOL_INIT_CODE_HASH.slice(2))
    expect(uniswap.quoter.bytecode).toContain(UNISWAP_V3_POOL_INIT_CODE_HASH.slice(2))
  })
})

describe.each(NETWORKS)('V3 market on %s', (network) => {
  // The flavour its table entry deploys (Uniswap V3 or PancakeSwap V3); its tokens are its catalog's.
  const uniswap = NETWORK_TABLE[network].devnet.v3 === 'uniswap-v3'
  let node: AnvilNode
  let deployment: DexDeployment
  let client: PublicClient
  const account = privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY)

  beforeAll(async () => {
    const chainId = DEVNET_CHAIN_IDS[network]
    node = await startAnvil({ port: await findFreePort(), chainId })
    deployment = await deployDex({ rpcUrl: node.rpcUrl, chainId, network })
    // A client of its own, so assertions read the chain rather than deployDex's own state.
    client = createPublicClient({ transport: http(node.rpcUrl, { batch: true }) })
  }, 120_000)

  afterAll(async () => {
    await node?.stop()
  })

  const wallet = () =>
    createWalletClient({
      account,
      chain: defineDevnetChain({ network, chainId: deployment.chainId, rpcUrl: node.rpcUrl }),
      transport: devnetTransport(node.rpcUrl),
    })

  const tokenAddress = (symbol: string): Address => {
    if (symbol === 'native') return deployment.wrappedNative
    if (symbol === 'USDC') return deployment.usdStablecoin
    const token = [...deployment.tokens, ...deployment.v3OnlyTokens].find(
      (candidate) => candidate.symbol === symbol,
    )
    if (!token) throw new Error(`no ${symbol} on ${network}`)
    return token.address
  }

  const poolOf = (a: string, b: string, fee: number): DeployedV3Pool => {
    const [x, y] = [tokenAddress(a), tokenAddress(b)]
    const pool = deployment.v3.pools.find(
      (candidate) =>
        candidate.fee === fee &&
        new Set([candidate.token0, candidate.token1]).has(x) &&
        new Set([candidate.token0, candidate.token1]).has(y),
    )
    if (!pool) throw new Error(`no ${a}/${b} ${fee} pool on ${network}`)
    return pool
  }

  it('puts every pool at CREATE2 from the configured deployer and init code hash', async () => {
    const { v3 } = deployment
    expect(v3.poolInitCodeHash).toBe(
      uniswap ? UNISWAP_V3_POOL_INIT_CODE_HASH : PANCAKE_V3_POOL_INIT_CODE_HASH,
    )
    expect(v3.pools.length).toBeGreaterThanOrEqual(10)

    for (const pool of v3.pools) {
      const [fromFactory, token0, token1, fee, code] = await Promise.all([
        client.readContract({
          address: v3.factory,
          abi: v3FactoryAbi,
          functionName: 'getPool',
          args: [pool.token1, pool.token0, pool.fee],
        }),
        client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'token0' }),
        client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'token1' }),
        client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'fee' }),
        client.getCode({ address: pool.address }),
      ])
      const derived = v3PoolAddress({
        poolDeployer: v3.poolDeployer,
        poolInitCodeHash: v3.poolInitCodeHash,
        tokenA: pool.token1,
        tokenB: pool.token0,
        fee: pool.fee,
      })

      expect(fromFactory).toBe(derived)
      expect(pool.address).toBe(derived)
      expect([token0, token1, fee]).toEqual([pool.token0, pool.token1, pool.fee])
      expect(code?.length ?? 0).toBeGreaterThan(2)
    }
    // Uniswap's factory deploys its own pools; PancakeSwap's hands that to its deployer.
    expect(v3.poolDeployer === v3.factory).toBe(uniswap)
  })

  it('prices each pool at the catalog prices, with liquidity in range', async () => {
    const catalog = SAMPLE_CATALOG[network]
    const listed = [
      { ...catalog.usdStablecoin, address: deployment.usdStablecoin },
      ...deployment.tokens,
      ...deployment.v3OnlyTokens,
      {
        decimals: 18,
        usdPrice: catalog.nativeCurrency.usdPrice,
        address: deployment.wrappedNative,
      },
    ]
    const tokenOf = (address: Address) => listed.find((token) => token.address === address)
    for (const pool of deployment.v3.pools) {
      const [[sqrtPriceX96], liquidity] = await Promise.all([
        client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'slot0' }),
        client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'liquidity' }),
      ])
      const [token0, token1] = [tokenOf(pool.token0), tokenOf(pool.token1)]
      const expected =
        (Number(token0?.usdPrice) / Number(token1?.usdPrice)) *
        10 ** ((token1?.decimals ?? 0) - (token0?.decimals ?? 0))
      const price = (Number(sqrtPriceX96) / 2 ** 96) ** 2

      expect(Math.abs(price / expected - 1), pool.address).toBeLessThan(1e-9)
      expect(liquidity, pool.address).toBeGreaterThan(0n)
    }
  })

  /** The pool as the Uniswap V3 SDK sees it, from slot0, liquidity and the ticks its mints set. */
  async function sdkPool(
    pool: DeployedV3Pool,
  ): Promise<{ sdk: Pool; token0: Token; token1: Token }> {
    const [[sqrtPriceX96, tick], liquidity, decimals0, decimals1, mints] = await Promise.all([
      client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'slot0' }),
      client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'liquidity' }),
      client.readContract({ address: pool.token0, abi: erc20Abi, functionName: 'decimals' }),
      client.readContract({ address: pool.token1, abi: erc20Abi, functionName: 'decimals' }),
      client.getLogs({ address: pool.address, event: mintEvent, fromBlock: 0n }),
    ])
    const indexes = [
      ...new Set(mints.flatMap(({ args }) => [Number(args.tickLower), Number(args.tickUpper)])),
    ].sort((a, b) => a - b)
    const ticks: TickConstructorArgs[] = []
    for (const index of indexes) {
      const [liquidityGross, liquidityNet, , , , , , initialized] = await client.readContract({
        address: pool.address,
        abi: v3PoolAbi,
        functionName: 'ticks',
        args: [index],
      })
      if (initialized) {
        ticks.push({
          index,
          liquidityGross: liquidityGross.toString(),
          liquidityNet: liquidityNet.toString(),
        })
      }
    }
    const token0 = new Token(deployment.chainId, pool.token0, decimals0)
    const token1 = new Token(deployment.chainId, pool.token1, decimals1)
    const sdk = new Pool(
      token0,
      token1,
      pool.fee,
      sqrtPriceX96.toString(),
      liquidity.toString(),
      tick,
      ticks,
    )
    return { sdk, token0, token1 }
  }

  // Pools with several positions, so trades cross their edges. The SDK knows the tick spacing of
  // Uniswap's tiers and of 100; PancakeSwap's 2500 it does not.
  const sdkCases: Array<[string, string, number]> =
    catalogOf(network) === 'ethereum'
      ? [
          ['native', 'USDC', 500],
          ['native', 'USDC', 3000],
          ['WBTC', 'native', 500],
        ]
      : [
          ['native', 'USDC', 500],
          ['native', 'USDC', 100],
          ['BTCB', 'native', 500],
        ]

  it.each(sdkCases)(
    "matches the Uniswap V3 SDK's output to QuoterV2's on %s/%s %i, crossing ticks",
    async (a, b, fee) => {
      const pool = poolOf(a, b, fee)
      const { sdk, token0, token1 } = await sdkPool(pool)
      let mostTicksCrossed = 0
      for (const [tokenIn, tokenOut] of [
        [token0, token1],
        [token1, token0],
      ] as const) {
        const tvl = await client.readContract({
          address: tokenIn.address as Address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [pool.address],
        })
        // From dust to three quarters of what the pool holds of the input token, past range edges.
        for (const amountIn of [tvl / 1_000_000n, tvl / 100n, tvl / 3n, (tvl * 3n) / 4n]) {
          const [sdkOut] = await sdk.getOutputAmount(
            CurrencyAmount.fromRawAmount(tokenIn, amountIn.toString()),
          )
          const {
            result: [quoterOut, , ticksCrossed],
          } = await client.simulateContract({
            address: deployment.v3.quoter,
            abi: quoterV2Abi,
            functionName: 'quoteExactInputSingle',
            args: [
              {
                tokenIn: tokenIn.address as Address,
                tokenOut: tokenOut.address as Address,
                amountIn,
                fee,
                sqrtPriceLimitX96: 0n,
              },
            ],
          })

          expect(BigInt(sdkOut.quotient.toString()), `${amountIn} in`).toBe(quoterOut)
          mostTicksCrossed = Math.max(mostTicksCrossed, ticksCrossed)
        }
      }
      expect(mostTicksCrossed).toBeGreaterThanOrEqual(1)
    },
  )

  async function balanceOf(token: Address | 'native'): Promise<bigint> {
    return token === 'native'
      ? client.getBalance({ address: account.address })
      : client.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [account.address],
        })
  }

  async function approveRouter(token: Address): Promise<void> {
    const hash = await wallet().writeContract({
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [deployment.swapRouter, maxUint256],
    })
    await client.waitForTransactionReceipt({ hash })
  }

  async function quoteSingle(tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) {
    const { result } = await client.simulateContract({
      address: deployment.v3.quoter,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }],
    })
    return result[0]
  }

  /** Sends one multicall(deadline, calls) to the router; returns the native coin paid for gas. */
  async function multicall(calls: Hex[], value = 0n): Promise<bigint> {
    const hash = await wallet().writeContract({
      address: deployment.swapRouter,
      abi: swapRouter02Abi,
      functionName: 'multicall',
      args: [maxUint256, calls],
      value,
    })
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    return receipt.gasUsed * receipt.effectiveGasPrice
  }

  const routes = {
    ethereum: {
      v3: ['USDC', 'WBTC', 3000],
      v2In: 'UNI',
      v3Out: 'WBTC',
      nativeTo: 'AAVE',
      nativeFrom: 'LINK',
    },
    altchain: {
      v3: ['USDC', 'BTCB', 2500],
      v2In: 'DOGE',
      v3Out: 'BTCB',
      nativeTo: 'TWT',
      nativeFrom: 'CAKE',
    },
  } as const
  const route = byCatalog(network, routes)

  it('swaps one V3 hop through the router for exactly what QuoterV2 said', async () => {
    const [inSymbol, outSymbol, fee] = route.v3
    const [tokenIn, tokenOut] = [tokenAddress(inSymbol), tokenAddress(outSymbol)]
    const amountIn = parseUnits('250000', 6)
    await approveRouter(tokenIn)
    const quoted = await quoteSingle(tokenIn, tokenOut, fee, amountIn)
    const [inBefore, outBefore] = await Promise.all([balanceOf(tokenIn), balanceOf(tokenOut)])

    await multicall([
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn,
            tokenOut,
            fee,
            recipient: MSG_SENDER,
            amountIn,
            amountOutMinimum: quoted,
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
    ])

    const [inAfter, outAfter] = await Promise.all([balanceOf(tokenIn), balanceOf(tokenOut)])
    expect(quoted).toBeGreaterThan(0n)
    expect(outAfter - outBefore).toBe(quoted)
    expect(inBefore - inAfter).toBe(amountIn)
  })

  it('swaps V2 then V3 in one multicall for exactly what Router02 and QuoterV2 said', async () => {
    const [tokenIn, usdc, tokenOut] = [
      tokenAddress(route.v2In),
      deployment.usdStablecoin,
      tokenAddress(route.v3Out),
    ]
    const fee = route.v3[2]
    const amountIn = parseUnits('100000', byCatalog(network, { ethereum: 18, altchain: 8 }))
    await approveRouter(tokenIn)
    const [, usdcOut] = await client.readContract({
      address: deployment.router,
      abi: uniswapV2RouterAbi,
      functionName: 'getAmountsOut',
      args: [amountIn, [tokenIn, usdc]],
    })
    const { result } = await client.simulateContract({
      address: deployment.v3.quoter,
      abi: quoterV2Abi,
      functionName: 'quoteExactInput',
      args: [encodePacked(['address', 'uint24', 'address'], [usdc, fee, tokenOut]), usdcOut ?? 0n],
    })
    const quoted = result[0]
    const outBefore = await balanceOf(tokenOut)

    await multicall([
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'swapExactTokensForTokens',
        args: [amountIn, 0n, [tokenIn, usdc], ADDRESS_THIS],
      }),
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'exactInput',
        args: [
          {
            path: encodePacked(['address', 'uint24', 'address'], [usdc, fee, tokenOut]),
            recipient: MSG_SENDER,
            amountIn: CONTRACT_BALANCE,
            amountOutMinimum: quoted,
          },
        ],
      }),
    ])

    expect(quoted).toBeGreaterThan(0n)
    expect((await balanceOf(tokenOut)) - outBefore).toBe(quoted)
  })

  it('takes the native coin in (wrapETH) and pays it out (unwrapWETH9) for exactly the quote', async () => {
    const weth = deployment.wrappedNative
    const fee = byCatalog(network, { ethereum: 3000, altchain: 2500 })
    const boughtToken = tokenAddress(route.nativeTo)
    const value = parseEther('3')
    const bought = await quoteSingle(weth, boughtToken, fee, value)
    const boughtBefore = await balanceOf(boughtToken)
    await multicall(
      [
        encodeFunctionData({ abi: swapRouter02Abi, functionName: 'wrapETH', args: [value] }),
        encodeFunctionData({
          abi: swapRouter02Abi,
          functionName: 'exactInputSingle',
          args: [
            {
              tokenIn: weth,
              tokenOut: boughtToken,
              fee,
              recipient: MSG_SENDER,
              amountIn: CONTRACT_BALANCE,
              amountOutMinimum: bought,
              sqrtPriceLimitX96: 0n,
            },
          ],
        }),
      ],
      value,
    )
    expect((await balanceOf(boughtToken)) - boughtBefore).toBe(bought)

    const soldToken = tokenAddress(route.nativeFrom)
    const amountIn = parseUnits('5000', 18)
    await approveRouter(soldToken)
    const received = await quoteSingle(soldToken, weth, fee, amountIn)
    const nativeBefore = await balanceOf('native')
    const gasPaid = await multicall([
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn: soldToken,
            tokenOut: weth,
            fee,
            recipient: ADDRESS_THIS,
            amountIn,
            amountOutMinimum: received,
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'unwrapWETH9',
        args: [received, account.address],
      }),
    ])
    expect(received).toBeGreaterThan(0n)
    expect((await balanceOf('native')) - nativeBefore + gasPaid).toBe(received)
  })

  /** Uniswap V2's getAmountOut on a pair's reserves, from `tokenIn`'s side. */
  async function v2AmountOut(tokenIn: Address, tokenOut: Address, amountIn: bigint) {
    const pair = deployment.pairs.find(
      ({ token0, token1 }) =>
        new Set([token0, token1]).has(tokenIn) && new Set([token0, token1]).has(tokenOut),
    )
    if (!pair) throw new Error('no such pair')
    const [reserve0, reserve1] = await client.readContract({
      address: pair.address,
      abi: uniswapV2PairAbi,
      functionName: 'getReserves',
    })
    const [reserveIn, reserveOut] =
      pair.token0 === tokenIn ? [reserve0, reserve1] : [reserve1, reserve0]
    return (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
  }

  it('swaps the zoo on V2 hops: fee-on-transfer both ways and a USDT-style input, exactly', async () => {
    const zoo = (symbol: string) => {
      const token = deployment.zoo.find((candidate) => candidate.symbol === symbol)
      if (!token) throw new Error(`no ${symbol}`)
      return token.address
    }
    const [fot, usdt, usdc, weth] = [
      zoo('FOT'),
      zoo('USDT'),
      deployment.usdStablecoin,
      deployment.wrappedNative,
    ]
    const burnt = (amount: bigint) => amount - (amount * FEE_ON_TRANSFER_BPS) / 10_000n
    const v2Hop = (tokenIn: Address, tokenOut: Address, amountIn: bigint) =>
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'swapExactTokensForTokens',
        args: [amountIn, 1n, [tokenIn, tokenOut], MSG_SENDER],
      })
    await approveRouter(fot)
    await approveRouter(usdt)

    // FOT in: the pair gets what survives the burn.
    const fotIn = parseUnits('20000', 18)
    const usdcExpected = await v2AmountOut(fot, usdc, burnt(fotIn))
    const usdcBefore = await balanceOf(usdc)
    await multicall([v2Hop(fot, usdc, fotIn)])
    expect((await balanceOf(usdc)) - usdcBefore).toBe(usdcExpected)

    // FOT out: the wallet gets what survives the burn of the pair's payment.
    const usdcIn = parseUnits('5000', 6)
    const fotExpected = burnt(await v2AmountOut(usdc, fot, usdcIn))
    const fotBefore = await balanceOf(fot)
    await multicall([v2Hop(usdc, fot, usdcIn)])
    expect((await balanceOf(fot)) - fotBefore).toBe(fotExpected)

    // USDT-style in: transferFrom returns nothing.
    const usdtIn = parseUnits('30000', 6)
    const wethExpected = await v2AmountOut(usdt, weth, usdtIn)
    const [usdtBefore, wethBefore] = await Promise.all([balanceOf(usdt), balanceOf(weth)])
    await multicall([v2Hop(usdt, weth, usdtIn)])
    expect((await balanceOf(weth)) - wethBefore).toBe(wethExpected)
    expect(usdtBefore - (await balanceOf(usdt))).toBe(usdtIn)
  })

  it('refuses forged swap, mint and deploy calls, so the approvals it holds cannot be drained', async () => {
    // Prepare: the deployer has approved the router (swaps above) and the seeder (deployment).
    const stranger = '0x000000000000000000000000000000000000bEEF'
    const [usdc, weth] = [deployment.usdStablecoin, deployment.wrappedNative]
    const fee = 500
    const allowances = await Promise.all(
      [deployment.swapRouter, deployment.v3.liquiditySeeder].map((spender) =>
        client.readContract({
          address: usdc,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [account.address, spender],
        }),
      ),
    )
    expect(allowances.every((allowance) => allowance > 0n)).toBe(true)
    const balanceBefore = await balanceOf(usdc)
    const callbackData = encodeAbiParameters(
      [{ type: 'tuple', components: [{ type: 'bytes' }, { type: 'address' }] }],
      [[encodePacked(['address', 'uint24', 'address'], [usdc, fee, weth]), account.address]],
    )
    const million = parseUnits('1000000', 6)
    const swapCallback = uniswap ? 'uniswapV3SwapCallback' : 'pancakeV3SwapCallback'
    const usdcIsToken0 = BigInt(usdc) < BigInt(weth)

    // Act: a stranger asks each contract to pay as if a pool were calling back.
    const attempts = [
      client.simulateContract({
        account: stranger,
        address: deployment.swapRouter,
        abi: forgedCallsAbi,
        functionName: swapCallback,
        args: [usdcIsToken0 ? million : -1n, usdcIsToken0 ? -1n : million, callbackData],
      }),
      ...(['uniswapV3MintCallback', 'pancakeV3MintCallback'] as const).map((functionName) =>
        client.simulateContract({
          account: stranger,
          address: deployment.v3.liquiditySeeder,
          abi: forgedCallsAbi,
          functionName,
          args: [million, million, '0x'],
        }),
      ),
      ...(!uniswap
        ? [
            client.simulateContract({
              account: stranger,
              address: deployment.v3.poolDeployer,
              abi: forgedCallsAbi,
              functionName: 'deploy',
              args: [stranger, usdc, weth, 3000, 60],
            }),
            client.simulateContract({
              account: account.address,
              address: deployment.v3.poolDeployer,
              abi: forgedCallsAbi,
              functionName: 'setFactoryAddress',
              args: [stranger],
            }),
          ]
        : []),
    ]
    const outcomes = await Promise.allSettled(attempts)

    // Assess
    expect(outcomes.map(({ status }) => status)).toEqual(attempts.map(() => 'rejected'))
    const reasons = outcomes.map((outcome) =>
      outcome.status === 'rejected' ? String(outcome.reason) : '',
    )
    expect(reasons[1]).toContain('not the pool being seeded')
    expect(reasons[2]).toContain('not the pool being seeded')
    if (!uniswap) {
      expect(reasons[3]).toContain('only factory')
      expect(reasons[4]).toContain('not allowed')
    }
    expect(await balanceOf(usdc)).toBe(balanceBefore)
    // The same callback from the pool itself goes through: the refusal is the caller check.
    const fromPool = await client.simulateContract({
      account: poolOf('native', 'USDC', fee).address,
      address: deployment.swapRouter,
      abi: forgedCallsAbi,
      functionName: swapCallback,
      args: [usdcIsToken0 ? million : -1n, usdcIsToken0 ? -1n : million, callbackData],
    })
    expect(fromPool.result).toBeUndefined()
  })
})
