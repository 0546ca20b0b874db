import '../../support/env'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  parseAbi,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilNode, startAnvil } from '../../../lib/local/anvil'
import {
  ANVIL_DEPLOYER_PRIVATE_KEY,
  DEVNET_CHAIN_IDS,
  type DexDeployment,
  deployDex,
  defineDevnetChain,
} from '../../../lib/local/deployDex'
import { findFreePort } from '../../../lib/local/findFreePort'
import { v3LiquiditySeederAbi } from '../../../lib/local/v3Artifacts'
import { httpEvent, invoke } from '../../support/httpEvent'
import { networkRoute } from '../../../lib/networkRoutes/networkRoutes'

const quoteEthereum = networkRoute('quote', 'ethereum')

// Issue 32, "a dense tick word steers large quotes", replayed on real pools on a devnet of this
// file's own (nobody else trades there): an attacker opens the WBTC/USDC pool of an unused fee
// tier at the market price with one narrow position over the price, 26 dust positions around it
// (over 48 initialized ticks in the price's bitmap word, which the lens of before skipped whole)
// and deep liquidity at a bad price far away. The lens of before then saw no tick at all, took
// the narrow position's liquidity for endless and sent a large sale there, accepting whatever its
// simulation paid. Now the word is read tick by tick (and paged on where a split runs past it),
// the pool is priced as empty beyond what was read, and the answer is the best simulated route:
// the sale fetches at least what it fetched before the attacker's pool existed.

const slot0Abi = parseAbi([
  'function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
])

let node: AnvilNode
let deployment: DexDeployment

beforeAll(async () => {
  const chainId = DEVNET_CHAIN_IDS.ethereum
  node = await startAnvil({ port: await findFreePort(), chainId })
  // The same deployer and order as the shared devnet: the same addresses, so only the URL moves
  // (before any module reads its configuration: clients are built on first use).
  deployment = await deployDex({ rpcUrl: node.rpcUrl, chainId, network: 'ethereum' })
  Object.assign(process.env, { ETHEREUM_RPC_URL: node.rpcUrl })
}, 300_000)

afterAll(async () => {
  await node?.stop()
})

const token = (symbol: string): Address => {
  const found = deployment.tokens.find((candidate) => candidate.symbol === symbol)
  if (!found) throw new Error(`no ${symbol}`)
  return found.address
}

/** The quote of a WBTC sale for USDC, through the route as anyone calls it. */
async function quoteSale(amount: string) {
  const response = await invoke(
    quoteEthereum,
    httpEvent({
      route: 'quoteEthereum',
      queryStringParameters: {
        amount,
        address0: token('WBTC'),
        decimals0: '8',
        address1: deployment.usdStablecoin,
        decimals1: '6',
      },
    }),
  )
  expect(response.status).toBe(200)
  return response.body.result as {
    amountOut: string
    priceImpactBps: number
    route: { shareBps: number; hops: { pool: Address; amountIn: string; amountOut: string }[] }[]
  }
}

describe('a V3 pool whose price word holds more ticks than the lens reads at once', () => {
  it('does not draw a large sale to its bad price, which fetches at least what it did before the pool', async () => {
    const sale = '30' // about $1.95M of WBTC
    const before = await quoteSale(sale)

    // The attacker's pool: WBTC/USDC at 0.05 % (the devnet pools that pair at 0.3 % only), at the
    // 0.3 % pool's price.
    const client = createPublicClient({ transport: http(node.rpcUrl) })
    const honest = deployment.v3.pools.find(
      (pool) =>
        pool.fee === 3000 &&
        [pool.token0, pool.token1].includes(token('WBTC')) &&
        [pool.token0, pool.token1].includes(deployment.usdStablecoin),
    )
    if (!honest) throw new Error('no WBTC/USDC pool')
    const [[sqrtPriceX96, tick], honestLiquidity] = await Promise.all([
      client.readContract({ address: honest.address, abi: slot0Abi, functionName: 'slot0' }),
      client.readContract({ address: honest.address, abi: slot0Abi, functionName: 'liquidity' }),
    ])
    const spacing = 10
    const at = Math.floor(tick / spacing) * spacing
    // Selling WBTC (token1 here: USDC sorts first) raises the tick: the bad price lies above.
    const positions = [
      // One spacing over the price, 20 times the honest pool's liquidity: cheap, and looks deep.
      { tickLower: at, tickUpper: at + spacing, liquidity: honestLiquidity * 20n },
      // 26 dust positions, each one spacing wide, around the price: 52 more initialized ticks.
      ...Array.from({ length: 26 }, (_, index) => {
        const offset = (index < 13 ? index - 13 : index - 12) * 2 * spacing
        return { tickLower: at + offset, tickUpper: at + offset + spacing, liquidity: 10n ** 6n }
      }),
      // Deep liquidity 50-80 % above the price: a WBTC sale there fetches a third less.
      { tickLower: at + 4_000, tickUpper: at + 6_000, liquidity: honestLiquidity * 4n },
    ]
    const wallet = createWalletClient({
      account: privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY),
      chain: defineDevnetChain(deployment),
      transport: http(node.rpcUrl),
    })
    const hash = await wallet.writeContract({
      address: deployment.v3.liquiditySeeder,
      abi: v3LiquiditySeederAbi,
      functionName: 'seed',
      args: [
        deployment.v3.factory,
        token('WBTC'),
        deployment.usdStablecoin,
        500,
        sqrtPriceX96,
        positions,
      ],
    })
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')

    const after = await quoteSale(sale)

    const [was, is] = [BigInt(before.amountOut), BigInt(after.amountOut)]
    console.log(
      `WBTC→USDC ${sale}: ${was} before the attacker's pool, ${is} after ` +
        `(${after.route.length} routes, impact ${after.priceImpactBps} bps)`,
    )
    // The attacker's pool holds a little real liquidity at the price: never worse than without
    // it, to 1 bps.
    expect(is).toBeGreaterThanOrEqual(was - was / 10_000n)
    // The legs carry the simulated amounts.
    expect(
      after.route.reduce(
        (sum, leg) => sum + BigInt(leg.hops[leg.hops.length - 1]?.amountOut ?? '0'),
        0n,
      ),
    ).toBe(is)
    expect(parseUnits(sale, 8)).toBe(
      after.route.reduce((sum, leg) => sum + BigInt(leg.hops[0]?.amountIn ?? '0'), 0n),
    )
  }, 120_000)
})
