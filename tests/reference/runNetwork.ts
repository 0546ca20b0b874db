import fc from 'fast-check'
import { type Address, encodeFunctionData, formatUnits, parseEther } from 'viem'
import { NATIVE_COIN } from '../../lib/constants'
import type { DexDeployment } from '../../lib/local/deployDex'
import { SAMPLE_CATALOG } from '../../lib/local/sampleCatalog'
import { bestSingleRoute, bruteForce, type ReferenceAnswer } from './bruteForce'
import { tokenAbi } from './chainAbis'
import {
  type ChainCheckLog,
  checkQuoter,
  measureTransferFees,
  measureV2Fees,
  undone,
} from './chainChecks'
import { judgeCase } from './compareQuote'
import { fundTrader, send } from './devnetTrader'
import { enumeratePaths } from './enumeratePaths'
import { configuredV2FeeBps, type GasPrice, gasUnits } from './gasModel'
import type { OwnDevnet } from './ownDevnet'
import { type MovedPair, moveV2Apart } from './moveV2Apart'
import { lower, type Path, type PoolInfo, type V2PoolInfo } from './poolTypes'
import { quoteService } from './quoteService'
import { planTrades, sendTrades, type TradeContext } from './randomTrades'
import { discoverPools, type MarketSnapshot, readMarket } from './readMarket'
import {
  type CaseRecord,
  caseRecord,
  describeCase,
  type NetworkTally,
  tallyCase,
  tallyUnfillable,
  type UnfillableRecord,
} from './referenceTally'
import type { Delivered } from './simulateLegs'

// One network's run of issue 33's generative test: its pools found and measured, then the
// devnet as copied and each planned state after it (seeded trades, V2 pairs moved apart from
// their V3 pools, or both), every ordered pair of catalog tokens and the native coin at
// log-spaced sizes, each case quoted by the service and by the brute force.

/** Sizes per pair: from 1e-6 to 50 % of the input token's deepest pool, log-spaced. */
export const SIZE_COUNT = 5
const SMALLEST_SHARE = 1e-6
const LARGEST_SHARE = 0.5
/** Trades that make each random state. */
const TRADES_PER_STATE = 8

/** How a state after the copy is made, on top of the state before it. */
export interface StatePlan {
  seed: number
  /** 'fixed': the same seed every run; 'run': the run's own, new each run (REFERENCE_SEED replays). */
  origin: 'fixed' | 'run'
  /** Every V2 pair with a V3 pool of its tokens traded to a seeded 5-40 % from that pool's price. */
  v2Apart: boolean
  /** Then TRADES_PER_STATE seeded trades on random pools. */
  trades: boolean
}

interface CatalogToken {
  /** As the client names it: the native coin is the sentinel address. */
  address: Address
  /** What the router swaps: the wrapped coin for the native one. */
  routerToken: Address
  symbol: string
  decimals: number
}

export interface NetworkRun {
  tally: NetworkTally
  /** Catalog tokens and the native coin: the cases are every ordered pair of them. */
  catalogSize: number
  /** Cases that miss the bar, for the report and the assertion. */
  failing: (CaseRecord | UnfillableRecord)[]
  /** Cases the brute force could not answer: each fails the test. */
  referenceFailures: string[]
  checks: ChainCheckLog
  transferFeeBps: Record<string, number>
  v2FeeBps: number[]
  /** The V2 fee the service's configuration prices pairs with: the measured one, or a finding. */
  configuredV2FeeBps: number
  pools: { v2: number; v3: number }
  states: {
    state: number
    seed?: number
    origin?: StatePlan['origin']
    blockNumber: string
    trades: string[]
    /** V2 pairs moved apart from their V3 pools, as measured on chain after the moves. */
    moved: MovedPair[]
  }[]
  splitsPriced: number
}

/** The shares of the deepest pool a state's sizes take: fixed ends, the middle jittered by seed. */
function sizeShares(seed: number | undefined): number[] {
  const low = Math.log10(SMALLEST_SHARE)
  const high = Math.log10(LARGEST_SHARE)
  const step = (high - low) / (SIZE_COUNT - 1)
  const [jitter = []] =
    seed === undefined
      ? [Array.from({ length: SIZE_COUNT }, () => 0)]
      : fc.sample(
          fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), {
            minLength: SIZE_COUNT,
            maxLength: SIZE_COUNT,
          }),
          { seed, numRuns: 1 },
        )
  return Array.from({ length: SIZE_COUNT }, (_, index) => {
    const edge = index === 0 || index === SIZE_COUNT - 1
    return 10 ** (low + step * (index + (edge ? 0 : (jitter[index] ?? 0))))
  })
}

/** Makes a planned state on the copy: V2 pairs moved apart, then trades, as planned. */
async function makeState(
  context: TradeContext,
  plan: StatePlan,
  transferFeeBps: (token: Address) => number,
): Promise<{ trades: string[]; moved: MovedPair[] }> {
  await fundTrader(context.client)
  const moved = plan.v2Apart ? await moveV2Apart({ ...context, transferFeeBps }, plan.seed) : []
  // The trades size themselves on the state before the moves (a share of a pair's holding then):
  // any size is a trade, and V3 ticks, all a trade reads besides, are as they were.
  const trades = plan.trades
    ? await sendTrades(context, planTrades(plan.seed, TRADES_PER_STATE))
    : []
  return { trades, moved }
}

async function catalogTokens(
  devnet: OwnDevnet,
  deployment: DexDeployment,
): Promise<CatalogToken[]> {
  const catalog = SAMPLE_CATALOG[deployment.network]
  const listed = [
    { address: deployment.usdStablecoin, symbol: catalog.usdStablecoin.symbol },
    ...[...deployment.tokens, ...deployment.v3OnlyTokens, ...deployment.zoo].map((token) => ({
      address: token.address,
      symbol: token.symbol,
    })),
  ]
  const tokens = await Promise.all(
    listed.map(async ({ address, symbol }) => ({
      address,
      routerToken: lower(address),
      symbol,
      decimals: await devnet.client.readContract({
        address,
        abi: tokenAbi,
        functionName: 'decimals',
      }),
    })),
  )
  return [
    ...tokens,
    {
      address: NATIVE_COIN,
      routerToken: lower(deployment.wrappedNative),
      symbol: catalog.nativeCurrency.symbol,
      decimals: 18,
    },
  ]
}

export async function runNetwork({
  devnet,
  deployment,
  plans,
  tally,
}: {
  devnet: OwnDevnet
  deployment: DexDeployment
  /** The states after the copy, each on top of the one before. */
  plans: readonly StatePlan[]
  tally: NetworkTally
}): Promise<NetworkRun> {
  const { network } = deployment
  const { client } = devnet
  const wrappedNative = lower(deployment.wrappedNative)
  const tokens = await catalogTokens(devnet, deployment)
  const routerTokens = [
    ...tokens.filter((token) => token.address !== NATIVE_COIN),
    { address: wrappedNative, routerToken: wrappedNative, symbol: 'wrapped', decimals: 18 },
  ]
  const found = await discoverPools(client, {
    v2Factory: deployment.factory,
    v3Factory: deployment.v3.factory,
    tokens: routerTokens.map((token) => token.routerToken),
  })

  // Measured on the copy, then undone: the fresh state stays as copied.
  const { transferFees, v2Fees } = await undone(client, async () => {
    await fundTrader(client)
    await send(client, {
      to: wrappedNative,
      data: encodeFunctionData({ abi: tokenAbi, functionName: 'deposit' }),
      value: parseEther('1000000'),
    })
    const transferFees = await measureTransferFees(
      client,
      routerTokens.map((token) => ({ address: token.routerToken, decimals: token.decimals })),
    )
    const takesFee = (token: Address) => (transferFees.get(token) ?? 0) > 0
    return { transferFees, v2Fees: await measureV2Fees(client, found.v2, takesFee) }
  })
  const feeOf = (token: Address) => {
    const bps = transferFees.get(token)
    if (bps === undefined) throw new Error(`no transfer fee measured for ${token}`)
    return bps
  }
  const delivered: Delivered = (token, amount) => amount - (amount * BigInt(feeOf(token))) / 10_000n
  const v2: V2PoolInfo[] = found.v2.map((pair) => {
    const feeBps = v2Fees.get(pair.address)
    if (feeBps === undefined) throw new Error(`no fee measured for the pair ${pair.address}`)
    return { ...pair, feeBps }
  })
  const pools: PoolInfo[] = [...v2, ...found.v3]
  const poolsByAddress = new Map(pools.map((pool) => [pool.address, pool]))
  const pathsCache = new Map<string, Path[]>()
  const pathsBetween = (tokenIn: Address, tokenOut: Address) => {
    const key = `${tokenIn}>${tokenOut}`
    let paths = pathsCache.get(key)
    if (!paths) {
      paths = enumeratePaths(pools, tokenIn, tokenOut, (token) => feeOf(token) > 0)
      pathsCache.set(key, paths)
    }
    return paths
  }
  const units = gasUnits(network)
  const symbolOf = new Map(routerTokens.map((token) => [token.routerToken, token.symbol]))

  const run: NetworkRun = {
    tally,
    catalogSize: tokens.length,
    failing: [],
    referenceFailures: [],
    checks: { checks: 0, mismatches: [] },
    transferFeeBps: Object.fromEntries(
      [...transferFees].map(([token, bps]) => [symbolOf.get(token) ?? token, bps]),
    ),
    v2FeeBps: [...new Set(v2.map((pair) => pair.feeBps))],
    configuredV2FeeBps: configuredV2FeeBps(network),
    pools: { v2: v2.length, v3: found.v3.length },
    states: [],
    splitsPriced: 0,
  }

  let snapshot: MarketSnapshot | undefined
  for (let state = 0; state <= plans.length; state += 1) {
    const plan = state === 0 ? undefined : plans[state - 1]
    const seed = plan?.seed
    const made =
      snapshot && plan
        ? await makeState(
            {
              client,
              pools,
              snapshot,
              swapRouter: deployment.swapRouter,
              wrappedNative,
              delivered,
              log: run.checks,
            },
            plan,
            feeOf,
          )
        : { trades: [], moved: [] }
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
    snapshot = await readMarket(client, { v2, v3: found.v3 }, blockNumber)
    run.states.push({
      state,
      seed,
      origin: plan?.origin,
      blockNumber: blockNumber.toString(),
      ...made,
    })
    await checkQuoter(client, deployment.v3.quoter, found.v3, snapshot, run.checks)
    const market = snapshot.states
    const gasPriceWei = await client.getGasPrice()
    const nativePrices = new Map<Address, GasPrice>()
    const gasPriceIn = async (tokenOut: Address): Promise<GasPrice> => {
      if (tokenOut === wrappedNative) return { numerator: gasPriceWei, denominator: 1n }
      let price = nativePrices.get(tokenOut)
      if (!price) {
        const nativeAmount = 10n ** 16n
        const out = await bestSingleRoute({
          market,
          paths: pathsBetween(wrappedNative, tokenOut),
          amountIn: nativeAmount,
          delivered,
        })
        price = { numerator: gasPriceWei * out, denominator: nativeAmount }
        nativePrices.set(tokenOut, price)
      }
      return price
    }
    const deepest = (token: Address) =>
      [...(snapshot?.balances.values() ?? [])].reduce((most, held) => {
        const balance = held.get(token) ?? 0n
        return balance > most ? balance : most
      }, 0n)
    const shares = sizeShares(seed)

    for (const from of tokens) {
      const sizes = shares.map((share) => {
        const amount = (deepest(from.routerToken) * BigInt(Math.round(share * 1e12))) / 10n ** 12n
        return amount > 0n ? amount : 1n
      })
      for (const to of tokens) {
        if (to.address === from.address) continue
        const paths = pathsBetween(from.routerToken, to.routerToken)
        for (const [sizeIndex, amountIn] of sizes.entries()) {
          const amount = formatUnits(amountIn, from.decimals)
          const query = {
            amount,
            address0: from.address,
            decimals0: from.decimals,
            address1: to.address,
            decimals1: to.decimals,
          }
          const name = {
            network,
            state,
            seed,
            blockNumber,
            from: from.symbol,
            to: to.symbol,
            amount,
            query,
          }
          let reference: ReferenceAnswer | 'unfillable'
          let gasPrice: GasPrice
          // The service's quote waits on the node while the brute force computes.
          const answering = quoteService(network, query)
          try {
            gasPrice = await gasPriceIn(to.routerToken)
            reference = await bruteForce({ market, paths, amountIn, delivered, units, gasPrice })
          } catch (error) {
            await answering.catch(() => undefined)
            run.referenceFailures.push(
              `${describeCase(name)}: ${error instanceof Error ? error.message : String(error)}`,
            )
            continue
          }
          const answer = await answering
          if (answer.result && BigInt(answer.result.blockNumber) !== blockNumber) {
            throw new Error(
              `${describeCase(name)}: the service quoted block ${answer.result.blockNumber}; the copy must not move`,
            )
          }
          if (reference === 'unfillable') {
            const missed = tallyUnfillable(tally, name, answer)
            if (missed) run.failing.push(missed)
            continue
          }
          run.splitsPriced += reference.splitsPriced
          const verdict = await judgeCase({
            answer,
            amountIn,
            reference,
            largestSize: sizeIndex === sizes.length - 1,
            market,
            pools: poolsByAddress,
            delivered,
            units,
            gasPrice,
          })
          const record = caseRecord(name, verdict, reference, answer)
          if (tallyCase(tally, record)) run.failing.push(record)
        }
      }
    }
  }
  return run
}
