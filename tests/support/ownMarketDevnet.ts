import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { encodeSqrtRatioX96, nearestUsableTick, TickMath } from '@uniswap/v3-sdk'
import { randomUUID } from 'node:crypto'
import { type Address, erc20Abi, maxUint256, parseAbi, parseEventLogs } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startAnvil } from '../../lib/local/anvil'
import { catalogTokenAbi, loadCatalogTokenArtifact } from '../../lib/local/catalogTokenArtifact'
import {
  ANVIL_DEPLOYER_PRIVATE_KEY,
  defineDevnetChain,
  DEVNET_CHAIN_IDS,
  deployDex,
} from '../../lib/local/deployDex'
import { findFreePort } from '../../lib/local/findFreePort'
import { createTable } from '../../lib/local/localTable'
import { uniswapV2Router02Abi } from '../../lib/local/uniswapV2Artifacts'
import { ownDevnetClient } from './faultEngines'

// An ethereum devnet and a table of a test file's own, for market tests that move the chain's
// clock (hours and days of price history) or leave pools in states nobody else should price: the
// shared devnets and table serve every other file at the same time. The service's modules are
// pointed at them before they read their configuration (they build clients on first use).
// Every transaction comes from the devnet's deployer, which holds the demo tokens.

const positionManagerAbi = parseAbi([
  'function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96) payable returns (address pool)',
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
  'struct DecreaseLiquidityParams { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }',
  'function decreaseLiquidity(DecreaseLiquidityParams params) payable returns (uint256 amount0, uint256 amount1)',
  'struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }',
  'function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)',
  'event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
])
const v3FactoryAbi = parseAbi([
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)',
])
const v3PoolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
])

const MAX_UINT128 = (1n << 128n) - 1n

/** A V3 position minted through the NonfungiblePositionManager. */
export interface MintedPosition {
  tokenId: bigint
  liquidity: bigint
  pool: Address
  /** Base units paid into the pool, by token address (lower-cased). */
  paid: Map<string, bigint>
}

/**
 * Starts the devnet (its genesis now, so its clock runs with the service's until a test moves it
 * ahead), deploys the DEX and the demo catalog tokens, makes the table, and points the service's
 * ethereum settings and table at them.
 */
export async function startOwnMarketDevnet() {
  const node = await startAnvil({
    port: await findFreePort(),
    chainId: DEVNET_CHAIN_IDS.ethereum,
    genesisTimestamp: 'now',
  })
  const deployment = await deployDex({
    rpcUrl: node.rpcUrl,
    chainId: node.chainId,
    network: 'ethereum',
  })
  const endpoint = String(process.env.DYNAMODB_ENDPOINT)
  const table = `own-market-${randomUUID()}`
  await createTable(endpoint, table)
  Object.assign(process.env, {
    TABLE_NAME: table,
    ETHEREUM_RPC_URL: deployment.rpcUrl,
    ETHEREUM_ROUTER: deployment.router,
    ETHEREUM_FACTORY: deployment.factory,
    ETHEREUM_WRAPPED_NATIVE: deployment.wrappedNative,
    ETHEREUM_USD_STABLECOIN: deployment.usdStablecoin,
    ETHEREUM_V3_FACTORY: deployment.v3.factory,
    ETHEREUM_V3_POOL_DEPLOYER: deployment.v3.poolDeployer,
    ETHEREUM_V3_POOL_INIT_CODE_HASH: deployment.v3.poolInitCodeHash,
    ETHEREUM_V3_FEE_TIERS: deployment.v3.feeTiers.join(','),
    ETHEREUM_SWAP_ROUTER: deployment.swapRouter,
  })
  const client = ownDevnetClient(
    deployment.rpcUrl,
    defineDevnetChain({ network: 'ethereum', chainId: node.chainId, rpcUrl: node.rpcUrl }),
    privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY),
  )
  // The likely cause of mints and withdrawals that reverted now and then on a busy machine (not
  // replayed): viem sends a call with the bare estimate of the head's second; a V2 pair's price
  // accumulators and a V3 pool's oracle, last written in that second, are written again when the
  // call is mined in a later one, and it runs out of gas (tests/lib/swap/gasHeadroom.test.ts shows
  // it on a swap). Each fixture call gets a fifth more than its estimate, as the service's own do.
  type Call = Parameters<typeof client.writeContract>[0]
  const mined = async (call: Call) => {
    const estimate = await client.estimateContractGas({ ...call, account: client.account })
    const hash = await client.writeContract({ ...call, gas: estimate + estimate / 5n })
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
    return receipt
  }
  const approved = new Set<string>()
  const approve = async (token: Address, spender: Address) => {
    const key = `${token}:${spender}`.toLowerCase()
    if (approved.has(key)) return
    await mined({
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender, maxUint256],
    })
    approved.add(key)
  }
  const positionManager = deployment.v3.positionManager
  if (!positionManager) throw new Error('the devnet has no NonfungiblePositionManager')

  return {
    deployment,
    client,
    /** The chain's latest block time, in Unix seconds. */
    async chainTime(): Promise<number> {
      return Number((await client.getBlock()).timestamp)
    },
    /** Mines one empty block at `timestamp` (Unix seconds): the chain's clock jumps there. */
    async mineAt(timestamp: number): Promise<void> {
      await client.request({ method: 'evm_mine', params: [timestamp] } as never)
    },
    /** A fresh ERC-20 (the catalog token contract), its whole supply the deployer's. */
    async deployToken(symbol: string, decimals: number, supply: bigint): Promise<Address> {
      const artifact = await loadCatalogTokenArtifact()
      const hash = await client.deployContract({
        abi: catalogTokenAbi,
        bytecode: artifact.bytecode,
        args: [`Test ${symbol}`, symbol, decimals, supply, client.account.address],
      })
      // A deployment's gas does not depend on the second it is mined in.
      const receipt = await client.waitForTransactionReceipt({ hash })
      if (!receipt.contractAddress) throw new Error('no contract deployed')
      return receipt.contractAddress
    },
    /** A V2 pair of the two tokens, created and filled through Router02. */
    async addV2Liquidity(tokenA: Address, amountA: bigint, tokenB: Address, amountB: bigint) {
      await approve(tokenA, deployment.router)
      await approve(tokenB, deployment.router)
      await mined({
        address: deployment.router,
        abi: uniswapV2Router02Abi,
        functionName: 'addLiquidity',
        args: [tokenA, tokenB, amountA, amountB, 0n, 0n, client.account.address, maxUint256],
      })
    },
    /**
     * A position of the fee tier's pool (created at the price `amountB / amountA` if absent) from
     * `ticksBelow` to `ticksAbove` around its price (rounded to the tick spacing; 0 and 0 is the
     * one tick spacing holding the price), funded with up to the amounts given.
     */
    async mintV3Position({
      tokenA,
      tokenB,
      fee,
      price,
      ticksBelow,
      ticksAbove,
      amountA,
      amountB,
    }: {
      tokenA: Address
      tokenB: Address
      fee: number
      /**
       * Base units of tokenB per base unit of tokenA, as a ratio, for a pool created here; with
       * `centered`, the pool starts at the middle of the tick spacing holding that price, so a
       * position of one tick spacing holds as much of each token.
       */
      price: { a: bigint; b: bigint; centered?: boolean }
      ticksBelow: number
      ticksAbove: number
      amountA: bigint
      amountB: bigint
    }): Promise<MintedPosition> {
      const aIsToken0 = BigInt(tokenA) < BigInt(tokenB)
      const [token0, token1] = aIsToken0 ? [tokenA, tokenB] : [tokenB, tokenA]
      const spacing = { 100: 1, 500: 10, 3000: 60, 10000: 200 }[fee]
      if (spacing === undefined) throw new Error(`no tick spacing for fee ${fee}`)
      const ratio = aIsToken0
        ? encodeSqrtRatioX96(price.b.toString(), price.a.toString())
        : encodeSqrtRatioX96(price.a.toString(), price.b.toString())
      const initial = price.centered
        ? TickMath.getSqrtRatioAtTick(
            Math.floor(TickMath.getTickAtSqrtRatio(ratio) / spacing) * spacing +
              Math.floor(spacing / 2),
          )
        : ratio
      await approve(tokenA, positionManager)
      await approve(tokenB, positionManager)
      await mined({
        address: positionManager,
        abi: positionManagerAbi,
        functionName: 'createAndInitializePoolIfNecessary',
        args: [token0, token1, fee, BigInt(initial.toString())],
      })
      const pool = await client.readContract({
        address: deployment.v3.factory,
        abi: v3FactoryAbi,
        functionName: 'getPool',
        args: [token0, token1, fee],
      })
      const [, tick] = await client.readContract({
        address: pool,
        abi: v3PoolAbi,
        functionName: 'slot0',
      })
      const holding = Math.floor(tick / spacing) * spacing
      // Below and above in token0's price: the bounds flip when tokenA is token1.
      const [below, above] = aIsToken0 ? [ticksBelow, ticksAbove] : [ticksAbove, ticksBelow]
      const tickLower = Math.max(
        nearestUsableTick(TickMath.MIN_TICK, spacing),
        holding - Math.ceil(below / spacing) * spacing,
      )
      const tickUpper = Math.min(
        nearestUsableTick(TickMath.MAX_TICK, spacing),
        holding + spacing + Math.ceil(above / spacing) * spacing,
      )
      const [amount0Desired, amount1Desired] = aIsToken0 ? [amountA, amountB] : [amountB, amountA]
      const receipt = await mined({
        address: positionManager,
        abi: positionManagerAbi,
        functionName: 'mint',
        args: [
          {
            token0,
            token1,
            fee,
            tickLower,
            tickUpper,
            amount0Desired,
            amount1Desired,
            amount0Min: 0n,
            amount1Min: 0n,
            recipient: client.account.address,
            deadline: maxUint256,
          },
        ],
      })
      const [minted] = parseEventLogs({
        abi: positionManagerAbi,
        eventName: 'IncreaseLiquidity',
        logs: receipt.logs,
      }).map(({ args }) => args)
      if (!minted) throw new Error('no position minted')
      return {
        tokenId: minted.tokenId,
        liquidity: minted.liquidity,
        pool,
        paid: new Map([
          [token0.toLowerCase(), minted.amount0],
          [token1.toLowerCase(), minted.amount1],
        ]),
      }
    },
    /** Takes the whole position out of its pool, tokens and fees back to the deployer. */
    async withdrawV3Position(position: MintedPosition): Promise<void> {
      await mined({
        address: positionManager,
        abi: positionManagerAbi,
        functionName: 'decreaseLiquidity',
        args: [
          {
            tokenId: position.tokenId,
            liquidity: position.liquidity,
            amount0Min: 0n,
            amount1Min: 0n,
            deadline: maxUint256,
          },
        ],
      })
      await mined({
        address: positionManager,
        abi: positionManagerAbi,
        functionName: 'collect',
        args: [
          {
            tokenId: position.tokenId,
            recipient: client.account.address,
            amount0Max: MAX_UINT128,
            amount1Max: MAX_UINT128,
          },
        ],
      })
    },
    /** Stops the devnet and drops the table. */
    async stop(): Promise<void> {
      await node.stop()
      const dynamo = new DynamoDBClient({
        endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      })
      try {
        await dynamo.send(new DeleteTableCommand({ TableName: table }))
      } finally {
        dynamo.destroy()
      }
    },
  }
}
