import '../support/env'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Address, erc20Abi, formatUnits, getAddress, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handler as indexDepositsHandler } from '../../functions/schedules/indexDeposits'
import { handler as listTradesHandler } from '../../functions/trades/listTrades'
import { runPriceSampler } from '../../functions/schedules/samplePrices'
import { importCatalogEntries } from '../../lib/catalog/importCatalog'
import { getProjectMarket } from '../../lib/db/marketStats'
import { readPathPrices } from '../../lib/db/pathPrices'
import { readPriceState } from '../../lib/db/priceBoundary'
import { projectId } from '../../lib/db/project'
import { httpEvent, invoke } from '../support/httpEvent'
import { catalogEntry } from '../support/marketFixtures'
import { startOwnMarketDevnet } from '../support/ownMarketDevnet'
import { runScheduled } from '../support/scheduledRun'
import { signInWithWallet } from '../support/walletSignIn'

// Issue 39, item 5: "the dust floor prices a token by a spot best route through any pool, which an
// attacker's pool can move; an unpriced token's floor is 0.01 whole tokens (about 900 USD of
// WBTC), so real deposits below it are never listed". Replayed on a devnet with its DEX and a
// table of the file's own (its clock moves an hour ahead): a token priced at $0.30 by a deep V2
// pair; the sampler's handler prices it and closes an hour of its history; an attacker opens a
// V3 pool at 10,000 times the price holding $3,000, which the sampler's spot best route follows
// (the project's price); then deposits into a signed-in wallet, indexed by the scheduled handler.
// DECISIONS §10.4: the dust floor follows the reviewed path's closed hour, never the spot route.

// The scheduled indexer indexes every served network: this devnet's only.
process.env.NETWORKS = 'ethereum'

const HOUR = 3600
const TOKEN = 10n ** 18n
const USD = 10n ** 6n
const usdOf = (valueE18: bigint | undefined) => Number(formatUnits(valueE18 ?? 0n, 18))

let own: Awaited<ReturnType<typeof startOwnMarketDevnet>>

beforeAll(async () => {
  own = await startOwnMarketDevnet()
}, 180_000)

afterAll(async () => {
  await own?.stop()
})

async function indexerRun() {
  const { result, timedOut } = await runScheduled(indexDepositsHandler, 60_000)
  expect(timedOut).toBe(false)
  return result?.find((entry) => entry.network === 'ethereum')
}

async function trades(access: string) {
  const response = await invoke(
    listTradesHandler,
    httpEvent({
      route: 'listTrades',
      headers: { authorization: `Bearer ${access}` },
      queryStringParameters: { limit: '50', direction: 'ASC' },
    }),
  )
  expect(response.status).toBe(200)
  return (response.body.result as { trades: Array<Record<string, unknown>> }).trades
}

describe('the dust floor under a moved spot route, and tokens without a price', () => {
  it('weighs by the path’s closed hour whatever an attacker’s pool makes of the spot price, and lists an unpriced token’s small real deposit flagged unpriced', async () => {
    const usdc = own.deployment.usdStablecoin
    const token = await own.deployToken('DUSTY', 18, 10_000_000n * TOKEN)
    await own.addV2Liquidity(token, 400_000n * TOKEN, usdc, 120_000n * USD)
    // A WBTC-like token nobody pools, and one whose catalog sets its own minimum.
    const unpriced = await own.deployToken('NOPOOL', 8, 21_000_000n * 10n ** 8n)
    const minimum = await own.deployToken('MINSET', 18, 1_000_000n * TOKEN)
    const [id] = await importCatalogEntries([
      catalogEntry({ address: getAddress(token), decimals: 18, symbol: 'DUSTY' }),
      catalogEntry({ address: getAddress(unpriced), decimals: 8, symbol: 'NOPOOL' }),
      catalogEntry({
        address: getAddress(minimum),
        decimals: 18,
        symbol: 'MINSET',
        dustMinimum: '0.5',
      }),
    ])
    if (!id) throw new Error('not imported')
    expect(id).toBe(projectId('ethereum', token))
    const wallet = await signInWithWallet()
    // The first run puts the cursor at the head.
    await indexerRun()

    // An hour of history closes at the honest price.
    const firstFullHour = Math.ceil((await own.chainTime()) / HOUR) * HOUR
    const firstRun = firstFullHour + HOUR + 60
    await own.mineAt(firstRun)
    await runPriceSampler(() => new Date(firstRun * 1000))
    const honest = (await getProjectMarket(id))?.market.priceE18
    const { path } = await readPriceState(id, { buckets: [], boundaries: [], now: new Date() })

    // The attacker's pool: one tick spacing at 10,000 times the price, $3,000 in it.
    const attack = await own.mintV3Position({
      tokenA: token,
      tokenB: usdc,
      fee: 500,
      price: { a: TOKEN, b: 3_000n * USD, centered: true },
      ticksBelow: 0,
      ticksAbove: 0,
      amountA: TOKEN,
      amountB: 3_000n * USD,
    })
    const secondRun = firstRun + 120
    await own.mineAt(secondRun)
    await runPriceSampler(() => new Date(secondRun * 1000))
    const steered = (await getProjectMarket(id))?.market.priceE18
    const at = new Date(((await own.chainTime()) + 60) * 1000)
    const pathPrice = (await readPathPrices([id], at)).get(id)

    // Deposits: 0.001 USD and 5 USD of the token at its honest price; 0.001 of the unpriced
    // token (about 90 USD were it WBTC); 0.1 and 1 of the token with a catalog minimum of 0.5.
    const send = async (asset: Address, amount: bigint) => {
      const hash = await own.client.writeContract({
        address: asset,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [wallet.address, amount],
      })
      expect((await own.client.waitForTransactionReceipt({ hash })).status).toBe('success')
    }
    const dustWorth = (TOKEN * 10n) / 3n / 1000n
    await send(token, dustWorth)
    await send(token, (TOKEN * 50n) / 3n)
    await send(unpriced, parseUnits('0.001', 8))
    await send(minimum, parseUnits('0.1', 18))
    await send(minimum, parseUnits('1', 18))

    const run = await indexerRun()
    const listed = await trades(wallet.access)

    const figures = {
      honestUsd: usdOf(honest),
      steeredUsd: usdOf(steered),
      pathUsd: usdOf(pathPrice),
      dustDepositAtSteeredUsd: usdOf((dustWorth * (steered ?? 0n)) / TOKEN),
      run: run && { recorded: run.recorded, dust: run.dust },
      listed: listed.map(({ amountExact, unpriced: flag }) => ({ amountExact, unpriced: flag })),
    }
    mkdirSync(join('.test-output', 'faults'), { recursive: true })
    writeFileSync(
      join('.test-output', 'faults', 'indexerAttacksPricing.json'),
      `${JSON.stringify(figures, null, 2)}\n`,
    )
    console.log(`indexerAttacksPricing: ${JSON.stringify(figures)}`)

    // The attack works on the spot route: the dust deposit is worth cents there.
    expect(path?.hops.map((hop) => hop.pool)).not.toContain(attack.pool)
    expect(usdOf(steered)).toBeGreaterThan(100 * usdOf(honest))
    expect(figures.dustDepositAtSteeredUsd).toBeGreaterThan(0.01)
    // The floor's price is the path's closed hour, the honest $0.30.
    expect(Math.abs(usdOf(pathPrice) - 0.3)).toBeLessThan(0.003)
    expect(listed).toEqual([
      expect.objectContaining({ type: 'deposit', amountExact: '16.666666666666666666' }),
      expect.objectContaining({ type: 'deposit', amountExact: '0.001', unpriced: true }),
      expect.objectContaining({ type: 'deposit', amountExact: '1', unpriced: true }),
    ])
    expect(listed[0]).not.toHaveProperty('unpriced')
    expect(run).toMatchObject({ recorded: 3, dust: 2 })
  }, 300_000)
})
