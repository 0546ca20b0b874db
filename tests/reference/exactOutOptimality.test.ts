import '../support/env'
import { randomInt } from 'node:crypto'
import { type Address, formatUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { NATIVE_COIN } from '../../lib/constants'
import type { DexDeployment } from '../../lib/local/deployDex'
import { SAMPLE_CATALOG } from '../../lib/local/sampleCatalog'
import type { NetworkName } from '../../lib/networkNames'
import { TESTED_NETWORKS } from '../support/networkCases'
import { bestSingleRoute } from './bruteForce'
import { bruteForceExactOut, type ExactOutSplit } from './bruteForceExactOut'
import { tokenAbi } from './chainAbis'
import { enumeratePaths } from './enumeratePaths'
import { configuredV2FeeBps, type GasPrice, gasCost, gasUnits, splitGas } from './gasModel'
import { copyDevnet, type OwnDevnet } from './ownDevnet'
import {
  lower,
  type Market,
  type Path,
  type PoolInfo,
  type V2State,
  type V3State,
} from './poolTypes'
import { quoteService } from './quoteService'
import { discoverPools, readMarket } from './readMarket'
import { sdkV2AmountOut } from './sdkPoolMath'
import { sdkV3SwapExactOut } from './sdkPoolMathExactOut'

// Issue 40 item 1's bar (DECISIONS §10.1), mirrored from issue 33's: every exact-output quote
// held against a brute force nobody here wrote (bruteForceExactOut: the Uniswap SDKs' exact-output
// math on pools found from the factories' logs), on every ordered pair of catalog tokens and the
// native coin, at sizes up to half the deepest pool of token1, on both networks, on a copy of the
// suite's devnet. Each answer: its route re-priced by the SDKs takes exactly its amountIn and
// pays its amountOut; amountIn + gas (the reference's fitted units, in token0) is at most the
// brute force's best + 1 bps. A pair through the fee-on-transfer token must be a 422, as must an
// amount no split can pay. The sizes' middle share is drawn from the run's seed (printed).

const RUN_SEED = Number(process.env.REFERENCE_SEED ?? randomInt(1_000_000))
const BAR_BPS = 1n

interface CatalogToken {
  address: Address
  routerToken: Address
  symbol: string
  decimals: number
}

interface Finding {
  network: NetworkName
  from: string
  to: string
  amount: string
  why: string
}

interface Run {
  cases: number
  answered: number
  refusedFeeToken: number
  unfillable: number
  /** Paid by the service on a split the brute force did not find (re-priced exactly). */
  beyondBruteForce: number
  findings: Finding[]
  worstBps: number
}

function shares(seed: number): number[] {
  // 1e-4 and 0.5 fixed; the middle log-uniform in [1e-3, 1e-1] by seed.
  const middle = 10 ** (-3 + ((seed % 1000) / 1000) * 2)
  return [1e-4, middle, 0.5]
}

async function tokensOf(devnet: OwnDevnet, deployment: DexDeployment): Promise<CatalogToken[]> {
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
  const native = {
    address: NATIVE_COIN,
    routerToken: lower(deployment.wrappedNative),
    symbol: catalog.nativeCurrency.symbol,
    decimals: 18,
  }
  return [...tokens, native]
}

/**
 * The answer's route re-priced by the SDKs on one copy of the pools, legs in order: a V3 leg must
 * take exactly its first hop's input for its last hop's output; a V2 leg's pairs must pay its
 * last hop's output for its first hop's input. Its legs' gas by the reference's units.
 */
async function reprice(
  market: Market,
  pools: ReadonlyMap<string, PoolInfo>,
  route: {
    hops: { pool: string; tokenIn: string; tokenOut: string; amountIn: string; amountOut: string }[]
  }[],
): Promise<{ differs: string | undefined; legs: { path: Path; ticksCrossed: number }[] }> {
  const overlay = new Map<string, V2State | V3State>()
  const legs: { path: Path; ticksCrossed: number }[] = []
  for (const leg of route) {
    const hops = leg.hops.map((hop) => {
      const pool = pools.get(lower(hop.pool))
      if (!pool) throw new Error(`the answer names a pool the reference did not find: ${hop.pool}`)
      return {
        pool,
        tokenIn: lower(hop.tokenIn),
        tokenOut: lower(hop.tokenOut),
        zeroForOne: pool.token0 === lower(hop.tokenIn),
      }
    })
    const path: Path = { hops, key: hops.map((hop) => hop.pool.address).join('>') }
    const stateOf = (address: Address) =>
      (overlay.get(address) ?? market.get(address)) as V2State & V3State
    const first = BigInt(leg.hops[0]?.amountIn ?? '0')
    const last = BigInt(leg.hops[leg.hops.length - 1]?.amountOut ?? '0')
    let ticksCrossed = 0
    if (hops[0]?.pool.protocol === 'v3') {
      let amount = last
      for (const hop of [...hops].reverse()) {
        const swap = await sdkV3SwapExactOut(
          hop.pool as never,
          stateOf(hop.pool.address),
          hop.zeroForOne,
          amount,
        )
        overlay.set(hop.pool.address, swap.after)
        ticksCrossed += swap.ticksCrossed
        amount = swap.amountIn
      }
      if (amount !== first)
        return { differs: `${path.key}: the SDKs take ${amount}, the answer ${first}`, legs }
    } else {
      let amount = first
      for (const hop of hops) {
        const state = stateOf(hop.pool.address)
        const out = sdkV2AmountOut(hop.pool as never, state, hop.zeroForOne, amount)
        overlay.set(hop.pool.address, {
          ...state,
          reserve0: hop.zeroForOne ? state.reserve0 + amount : state.reserve0 - out,
          reserve1: hop.zeroForOne ? state.reserve1 - out : state.reserve1 + amount,
        })
        amount = out
      }
      if (amount !== last)
        return { differs: `${path.key}: the SDKs pay ${amount}, the answer ${last}`, legs }
    }
    legs.push({ path, ticksCrossed })
  }
  return { differs: undefined, legs }
}

async function runNetwork(devnet: OwnDevnet, deployment: DexDeployment): Promise<Run> {
  const { network } = deployment
  const { client } = devnet
  const tokens = await tokensOf(devnet, deployment)
  const wrapped = lower(deployment.wrappedNative)
  const routerTokens = [...new Set([...tokens.map((token) => token.routerToken), wrapped])]
  const found = await discoverPools(client, {
    v2Factory: deployment.factory,
    v3Factory: deployment.v3.factory,
    tokens: routerTokens,
  })
  const v2 = found.v2.map((pair) => ({ ...pair, feeBps: configuredV2FeeBps(network) }))
  const pools: PoolInfo[] = [...v2, ...found.v3]
  const byAddress = new Map(pools.map((pool) => [pool.address as string, pool]))
  const feeToken = new Set(
    deployment.zoo.filter((token) => token.symbol === 'FOT').map((token) => lower(token.address)),
  )
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
  const snapshot = await readMarket(client, { v2, v3: found.v3 }, blockNumber)
  const market = snapshot.states
  const units = gasUnits(network)
  const gasPriceWei = await client.getGasPrice()
  const gasPriceIn = async (token: Address): Promise<GasPrice> => {
    if (token === wrapped) return { numerator: gasPriceWei, denominator: 1n }
    const nativeAmount = 10n ** 16n
    const out = await bestSingleRoute({
      market,
      paths: enumeratePaths(pools, wrapped, token, (each) => feeToken.has(each)),
      amountIn: nativeAmount,
      delivered: (_, amount) => amount,
    })
    return { numerator: gasPriceWei * out, denominator: nativeAmount }
  }
  const deepest = (token: Address) =>
    [...snapshot.balances.values()].reduce((most, held) => {
      const balance = held.get(token) ?? 0n
      return balance > most ? balance : most
    }, 0n)
  const run: Run = {
    cases: 0,
    answered: 0,
    refusedFeeToken: 0,
    unfillable: 0,
    beyondBruteForce: 0,
    findings: [],
    worstBps: -Infinity,
  }
  for (const from of tokens) {
    const gasPrice = await gasPriceIn(from.routerToken)
    for (const to of tokens) {
      if (to.address === from.address) continue
      const paths = enumeratePaths(pools, from.routerToken, to.routerToken, (each) =>
        feeToken.has(each),
      )
      for (const share of shares(RUN_SEED)) {
        const amountOut = (deepest(to.routerToken) * BigInt(Math.round(share * 1e12))) / 10n ** 12n
        if (amountOut <= 0n) continue
        run.cases += 1
        const amount = formatUnits(amountOut, to.decimals)
        const finding = (why: string) =>
          run.findings.push({ network, from: from.symbol, to: to.symbol, amount, why })
        const answer = await quoteService(network, {
          amount,
          address0: from.address,
          decimals0: from.decimals,
          address1: to.address,
          decimals1: to.decimals,
          type: 'exactOut',
        })
        if (feeToken.has(from.routerToken) || feeToken.has(to.routerToken)) {
          if (answer.status !== 422) finding(`a fee-taking pair answered ${answer.status}`)
          else run.refusedFeeToken += 1
          continue
        }
        const best: ExactOutSplit | undefined = await bruteForceExactOut({
          market,
          paths,
          amountOut,
          units,
          gasPrice,
        })
        const result = answer.result as (typeof answer.result & { amountIn: string }) | undefined
        if (!best) {
          if (answer.status === 422) run.unfillable += 1
          else if (!result) finding(`no split can pay it, the service answered ${answer.status}`)
          else {
            // The service found a split the brute force did not: it must re-price exactly.
            const { differs } = await reprice(market, byAddress, result.route)
            if (differs) finding(`the brute force pays nothing; re-priced: ${differs}`)
            else if (BigInt(result.amountOut) < amountOut) finding(`pays ${result.amountOut}`)
            else run.beyondBruteForce += 1
          }
          continue
        }
        if (answer.status !== 200 || !result) {
          finding(
            `the brute force pays it for ${best.amountIn}, the service answered ${answer.status}: ${answer.error}`,
          )
          continue
        }
        if (BigInt(result.blockNumber) !== blockNumber) throw new Error('the copy must not move')
        run.answered += 1
        const { differs, legs } = await reprice(market, byAddress, result.route)
        if (differs) {
          finding(`re-priced: ${differs}`)
          continue
        }
        const claimed = BigInt(result.amountIn)
        const legsIn = result.route.reduce(
          (sum, leg) => sum + BigInt(leg.hops[0]?.amountIn ?? '0'),
          0n,
        )
        if (legsIn !== claimed) finding(`legs take ${legsIn}, amountIn says ${claimed}`)
        if (BigInt(result.amountOut) < amountOut) finding(`pays ${result.amountOut} < ${amountOut}`)
        const cost = claimed + gasCost(splitGas(units, legs), gasPrice)
        const bps = Number(((cost - best.cost) * 100_000n) / best.cost) / 10
        run.worstBps = Math.max(run.worstBps, bps)
        if (cost * 10_000n > best.cost * (10_000n + BAR_BPS)) {
          finding(
            `costs ${cost} (in ${claimed}), the brute force ${best.cost} (in ${best.amountIn}, ${best.legs.length} legs): ${bps} bps more`,
          )
        }
      }
    }
  }
  return run
}

describe('exact-output quotes against an independent brute force (issue 40 item 1, DECISIONS §10.1)', () => {
  const devnets = new Map<NetworkName, OwnDevnet>()
  const runs = new Map<NetworkName, Run>()

  beforeAll(async () => {
    console.log(
      `exact-output optimality: run seed ${RUN_SEED} (REFERENCE_SEED=${RUN_SEED} replays it)`,
    )
    // Thousands of quotes each charge the client's budget in the shared DynamoDB Local: on a
    // loaded CI run two outlasted the deployed 1 s timeout and answered 503. The database's
    // latency is not what this file judges.
    process.env.DYNAMODB_REQUEST_TIMEOUT_MS = '10000'
    const deployments = inject('deployments')
    for (const network of TESTED_NETWORKS) {
      const devnet = await copyDevnet({ network, chainId: deployments[network].chainId })
      devnets.set(network, devnet)
      process.env[`${network.toUpperCase()}_RPC_URL`] = devnet.rpcUrl
    }
    for (const network of TESTED_NETWORKS) {
      const run = await runNetwork(devnets.get(network) as OwnDevnet, deployments[network])
      runs.set(network, run)
      console.log(
        `${network}: ${run.cases} cases, ${run.answered} answered and judged, ${run.refusedFeeToken} fee-token 422s, ${run.unfillable} unfillable 422s, ${run.beyondBruteForce} paid beyond the brute force, worst ${run.worstBps} bps over the brute force; findings:\n` +
          run.findings
            .map((each) => `  ${each.from}→${each.amount} ${each.to}: ${each.why}`)
            .join('\n'),
      )
    }
  }, 45 * 60_000)

  afterAll(async () => {
    await Promise.all([...devnets.values()].map((devnet) => devnet.stop()))
  })

  for (const network of TESTED_NETWORKS) {
    it(`on ${network}, every case: the route re-priced by the SDKs takes exactly amountIn, amountIn + gas in token0 is at most the brute force's best + 1 bps, fee-taking pairs and unpayable amounts 422`, () => {
      const run = runs.get(network)
      expect(run?.answered, network).toBeGreaterThan(0)
      expect(run?.findings, network).toEqual([])
    })
  }
})
