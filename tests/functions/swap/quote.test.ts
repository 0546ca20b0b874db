import '../../support/env'
import {
  type Address,
  decodeFunctionData,
  formatUnits,
  getAddress,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  toHex,
  zeroAddress,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { swapRouter02Abi } from '../../../lib/chain/swapRouterCall'
import { NETWORKS, type NetworkName } from '../../../lib/networkNames'
import { functionName } from '../../../lib/networks/operations'
import { catalogTokenAbi, loadCatalogTokenArtifact } from '../../../lib/local/catalogTokenArtifact'
import { NATIVE_COIN } from '../../../lib/constants'
import { deployment, devnet, devnetWallet, fundedAccount } from '../../support/devnetAccounts'
import { httpEvent, invoke } from '../../support/httpEvent'
import {
  byCatalog,
  casesOnEveryNetwork,
  pairedToken,
  TESTED_NETWORKS,
} from '../../support/networkCases'
import { networkHandler } from '../../support/networkRoutes'
import { type QuoteSnapshot, routeOutAt } from '../../support/swapChecks'

// Each tested network, its cases its catalog's (tests/support/networkCases.ts).
const WITH_CALL = TESTED_NETWORKS.filter((network) => NETWORKS[network].routes.quoteCall)

interface Quote {
  quote: number
  amount: number
  decimal: number
  amountOutMin: `0x${string}`
  path: Address[]
  gasPriceWei: number
  calldata?: `0x${string}`
  value?: `0x${string}`
  amountOut: string
  route: QuoteSnapshot['route']
  priceImpactBps: number
  gasEstimate: number
  gasCostToken1: string
  to: Address
  blockNumber: number
}

async function quote(network: NetworkName, query: Record<string, string>) {
  return invoke(
    await networkHandler('quote', network),
    httpEvent({ route: functionName('quote', network), queryStringParameters: query }),
  )
}

/**
 * A quote and an independent computation of its route over the same state (routeOutAt: pair
 * reserves and QuoterV2): other test files trade on these pools, so the pair is taken only when
 * no block was mined while the quote ran.
 */
async function quoteWithExpectation(network: NetworkName, query: Record<string, string>) {
  const client = devnet(network)
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const before = await client.getBlockNumber({ cacheTime: 0 })
    const [response, gasPrice] = await Promise.all([quote(network, query), client.getGasPrice()])
    const after = await client.getBlockNumber({ cacheTime: 0 })
    if (before !== after) continue
    expect(response.status).toBe(200)
    const result = response.body.result as Quote
    const expected = await routeOutAt(network, result.route, before, () => 0n)
    return { response, result, expected, gasPrice, blockNumber: before }
  }
  throw new Error(`${network} kept mining blocks during the quote`)
}

const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)'])
const slot0Abi = parseAbi([
  'function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint32, bool)',
])

/**
 * The price impact in bps computed apart from the service: what each leg's input fetches at its
 * pools' first-unit rates at the block (V2: reserves and the pair's 0.3 %; V3: slot0's price and
 * the tier's fee), against `amountOut`, rounded down (DECISIONS §9.3: from the simulated amount).
 */
async function impactAt(
  network: NetworkName,
  route: Quote['route'],
  amountOut: bigint,
  blockNumber: bigint,
): Promise<number> {
  const client = devnet(network)
  let numerator = 0n
  let denominator = 1n
  for (const leg of route) {
    let legNumerator = BigInt(leg.hops[0]?.amountIn ?? '0')
    let legDenominator = 1n
    for (const hop of leg.hops) {
      const zeroForOne = hop.tokenIn.toLowerCase() < hop.tokenOut.toLowerCase()
      if (hop.protocol === 'v2') {
        const [reserve0, reserve1] = await client.readContract({
          address: hop.pool,
          abi: pairAbi,
          functionName: 'getReserves',
          blockNumber,
        })
        legNumerator *= 997n * (zeroForOne ? reserve1 : reserve0)
        legDenominator *= 1000n * (zeroForOne ? reserve0 : reserve1)
      } else {
        const [sqrtPrice] = await client.readContract({
          address: hop.pool,
          abi: slot0Abi,
          functionName: 'slot0',
          blockNumber,
        })
        const keep = BigInt(1_000_000 - (hop.fee ?? 0))
        legNumerator *= keep * (zeroForOne ? sqrtPrice * sqrtPrice : 1n << 192n)
        legDenominator *= 1_000_000n * (zeroForOne ? 1n << 192n : sqrtPrice * sqrtPrice)
      }
    }
    numerator = numerator * legDenominator + legNumerator * denominator
    denominator *= legDenominator
  }
  const shortfall = numerator - amountOut * denominator
  return shortfall <= 0n ? 0 : Number((shortfall * 10_000n) / numerator)
}

/** The route's shape: shares summing to the whole, hops chained from in to out. */
function expectRouteShape(result: Quote, tokenIn: Address, tokenOut: Address, amountIn: bigint) {
  expect(result.route.reduce((sum, leg) => sum + leg.shareBps, 0)).toBe(10_000)
  let legsIn = 0n
  for (const leg of result.route) {
    expect(leg.shareBps).toBeGreaterThan(0)
    expect(getAddress(leg.hops[0]?.tokenIn ?? zeroAddress)).toBe(getAddress(tokenIn))
    expect(getAddress(leg.hops[leg.hops.length - 1]?.tokenOut ?? zeroAddress)).toBe(
      getAddress(tokenOut),
    )
    leg.hops.forEach((hop, index) => {
      const next = leg.hops[index + 1]
      if (next) expect([next.tokenIn, next.amountIn]).toEqual([hop.tokenOut, hop.amountOut])
      expect(hop.protocol === 'v3').toBe(hop.fee !== undefined)
    })
    legsIn += BigInt(leg.hops[0]?.amountIn ?? '0')
  }
  expect(legsIn).toBe(amountIn)
}

const floorSlippage = (amountOut: bigint, bps: number) =>
  (amountOut * BigInt(10_000 - bps)) / 10_000n

/** The SwapRouter02 multicall of a quote's calldata: its deadline and its inner calls. */
function decodeRouterCall(data: `0x${string}`) {
  const outer = decodeFunctionData({ abi: swapRouter02Abi, data })
  if (outer.functionName !== 'multicall') throw new Error(`not a multicall: ${outer.functionName}`)
  const [deadline, inner] = outer.args
  return {
    deadline,
    calls: inner.map((call) => decodeFunctionData({ abi: swapRouter02Abi, data: call })),
  }
}

describe('GET /v1/swap/quote/{network}', () => {
  it.each(
    casesOnEveryNetwork({
      ethereum: [
        { from: 'WBTC', decimals0: 8, to: 'USDC', decimals1: 6, amount: '0.5' },
        {
          from: 'USDC',
          decimals0: 6,
          to: 'LINK',
          decimals1: 18,
          amount: '2500.25',
        },
        {
          from: 'LINK',
          decimals0: 18,
          to: 'WBTC',
          decimals1: 8,
          amount: '1000.000000000000000001',
        },
        // UNI has no pool with WETH: the route needs the stablecoin (and may go on through WETH).
        { from: 'UNI', decimals0: 18, to: 'LINK', decimals1: 18, amount: '750' },
      ],
      altchain: [
        {
          from: 'CAKE',
          decimals0: 18,
          to: 'BTCB',
          decimals1: 18,
          amount: '12345.6789',
        },
        {
          from: 'DOGE',
          decimals0: 8,
          to: 'USDC',
          decimals1: 6,
          amount: '100000.12345678',
        },
        { from: 'DOGE', decimals0: 8, to: 'CAKE', decimals1: 18, amount: '9000' },
      ],
    } as const),
  )(
    "quotes $network $from→$to exactly as its route's pools give it, and shows the route",
    async ({ network, from: symbol0, decimals0, to: symbol1, decimals1, amount }) => {
      const dex = deployment(network)
      const query = {
        amount,
        address0: dex.token(symbol0),
        decimals0: String(decimals0),
        address1: dex.token(symbol1).toLowerCase(),
        decimals1: String(decimals1),
        slippageBps: '0',
      }

      const { result, expected, gasPrice, blockNumber } = await quoteWithExpectation(network, query)

      const amountOut = BigInt(result.amountOut)
      expect(amountOut).toBeGreaterThan(0n)
      expect(amountOut).toBe(expected)
      expect(result.amountOutMin).toBe(toHex(amountOut))
      expect(result.quote).toBe(Number(formatUnits(amountOut, decimals1)))
      expect(result).toMatchObject({ amount: Number(amount), decimal: decimals1 })
      expect(result.gasPriceWei).toBe(Number(gasPrice))
      expectRouteShape(
        result,
        dex.token(symbol0),
        dex.token(symbol1),
        parseUnits(amount, decimals0),
      )
      // `path` is the largest route's tokens (DECISIONS §8.1): the first of the largest, as the
      // routes come in the order the router runs them.
      const largest =
        result.route.reduce<(typeof result.route)[number] | undefined>(
          (found, leg) =>
            !found || BigInt(leg.hops[0]?.amountIn ?? '0') > BigInt(found.hops[0]?.amountIn ?? '0')
              ? leg
              : found,
          undefined,
        )?.hops ?? []
      expect(result.path).toEqual([largest[0]?.tokenIn, ...largest.map((hop) => hop.tokenOut)])
      expect(result.to).toBe(getAddress(dex.swapRouter))
      expect(result.blockNumber).toBe(Number(blockNumber))
      expect(result.gasEstimate).toBeGreaterThan(0)
      expect(BigInt(result.gasCostToken1)).toBeGreaterThanOrEqual(0n)
      // The legs carry the simulated amounts: their last hops sum to amountOut.
      expect(
        result.route.reduce(
          (sum, leg) => sum + BigInt(leg.hops[leg.hops.length - 1]?.amountOut ?? '0'),
          0n,
        ),
      ).toBe(amountOut)
      // The impact against each leg's input at its pools' first-unit rates, read from the pools.
      expect(result.priceImpactBps).toBe(
        await impactAt(network, result.route, amountOut, blockNumber),
      )
    },
  )

  it('takes a route beyond the direct pool, and applies slippage', async () => {
    // CAKE and BTCB share no pool: the route goes through a connector.
    const dex = deployment('altchain')
    const query = {
      amount: '5000',
      address0: dex.token('CAKE'),
      decimals0: '18',
      address1: dex.token('BTCB'),
      decimals1: '18',
      slippageBps: '137',
    }

    const { result, expected } = await quoteWithExpectation('altchain', query)

    expect(result.path.length).toBeGreaterThan(2)
    expect(BigInt(result.amountOut)).toBe(expected)
    expect(result.amountOutMin).toBe(toHex(floorSlippage(expected, 137)))
    expect(result).not.toHaveProperty('calldata')
    expect(result).not.toHaveProperty('value')
  })

  it('quotes the native coin through its wrapped token on every network', async () => {
    for (const network of TESTED_NETWORKS) {
      const symbol = pairedToken(network)
      const dex = deployment(network)
      const query = {
        amount: '1.5',
        address0: NATIVE_COIN.toLowerCase(),
        decimals0: '18',
        address1: dex.token(symbol),
        decimals1: '18',
      }

      const { result, expected } = await quoteWithExpectation(network, query)

      expectRouteShape(result, dex.wrappedNative, dex.token(symbol), parseEther('1.5'))
      expect(result.path[0]).toBe(getAddress(dex.wrappedNative))
      expect(result.amountOutMin).toBe(toHex(floorSlippage(expected, 50)))
    }
  })

  it.each(WITH_CALL)(
    'returns %s calldata: one SwapRouter02 multicall of the quoted route to the recipient',
    async (network) => {
      const dex = deployment(network)
      const [from, to, decimals] = byCatalog(network, {
        ethereum: ['LINK', 'WBTC', '8'],
        altchain: ['CAKE', 'BTCB', '18'],
      } as const)
      const recipient = privateKeyToAccount(
        '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
      ).address
      const cases = [
        { address0: dex.token(from), address1: dex.token(to) },
        { address0: NATIVE_COIN, address1: dex.token(to) },
        { address0: dex.token(from), address1: NATIVE_COIN },
      ] as const
      for (const { address0, address1 } of cases) {
        const query = {
          amount: '3',
          address0,
          decimals0: '18',
          address1,
          decimals1: address1 === NATIVE_COIN ? '18' : decimals,
          recipient: recipient.toLowerCase(),
        }
        const startedAt = Math.floor(Date.now() / 1000)

        const { result, expected } = await quoteWithExpectation(network, query)
        const endedAt = Math.ceil(Date.now() / 1000)

        const { deadline, calls } = decodeRouterCall(result.calldata ?? '0x')
        const amountOutMin = floorSlippage(expected, 50)
        // The whole output's minimum and recipient: on the only leg's swap, or on the unwrap
        // (native out) or sweep (a split) that pays the recipient once every leg has paid the router.
        const last = calls[calls.length - 1]
        if (last?.functionName === 'unwrapWETH9' || last?.functionName === 'sweepToken') {
          expect(last.args.slice(-2)).toEqual([amountOutMin, recipient])
          expect(last.functionName).toBe(address1 === NATIVE_COIN ? 'unwrapWETH9' : 'sweepToken')
        } else if (last?.functionName === 'exactInput') {
          expect([last.args[0].amountOutMinimum, last.args[0].recipient]).toEqual([
            amountOutMin,
            recipient,
          ])
        } else if (last?.functionName === 'swapExactTokensForTokens') {
          expect(last.args.slice(1, 2)).toEqual([amountOutMin])
          expect(last.args[3]).toBe(recipient)
        } else {
          throw new Error(`unexpected last call ${last?.functionName}`)
        }
        if (address1 === NATIVE_COIN) expect(last?.functionName).toBe('unwrapWETH9')
        // 20 minutes from the moment the quote was made, however long the request took.
        expect(Number(deadline) - startedAt).toBeGreaterThanOrEqual(20 * 60)
        expect(Number(deadline) - endedAt).toBeLessThanOrEqual(20 * 60)
        expect(result.value).toBe(address0 === NATIVE_COIN ? toHex(parseEther('3')) : '0x0')
      }
    },
  )

  it.each(WITH_CALL)(
    'defaults the recipient to the zero address and the slippage to 50 bps on %s',
    async (network) => {
      const dex = deployment(network)
      const [symbol, decimals] = byCatalog(network, {
        ethereum: ['UNI', '18'],
        altchain: ['DOGE', '8'],
      } as const)
      const query = {
        amount: '10',
        address0: dex.token('USDC'),
        decimals0: '6',
        address1: dex.token(symbol),
        decimals1: decimals,
      }

      const { result, expected } = await quoteWithExpectation(network, query)

      const { calls } = decodeRouterCall(result.calldata ?? '0x')
      const recipients = calls.flatMap((call) =>
        call.functionName === 'exactInput'
          ? [call.args[0].recipient]
          : call.functionName === 'swapExactTokensForTokens'
            ? [call.args[3]]
            : call.functionName === 'sweepToken'
              ? [call.args[2]]
              : [],
      )
      expect(recipients[recipients.length - 1]).toBe(zeroAddress)
      expect(result.amountOutMin).toBe(toHex(floorSlippage(expected, 50)))
    },
  )

  describe('without a route', () => {
    let orphan: Address

    // A token of its own with no pool anywhere.
    beforeAll(async () => {
      const { privateKey } = await fundedAccount('ethereum', { native: parseEther('10') })
      const account = privateKeyToAccount(privateKey)
      const client = devnet('ethereum')
      const wallet = devnetWallet('ethereum', account)
      const artifact = await loadCatalogTokenArtifact()
      const hash = await wallet.deployContract({
        abi: catalogTokenAbi,
        bytecode: artifact.bytecode,
        args: ['Orphan', 'ORPH', 18, maxUint256 / 2n, account.address],
      })
      const receipt = await client.waitForTransactionReceipt({ hash })
      orphan = receipt.contractAddress as Address
    })

    it('answers 422 for a token with no pair, on either path', async () => {
      const response = await quote('ethereum', {
        amount: '1',
        address0: orphan,
        decimals0: '18',
        address1: deployment('ethereum').token('USDC'),
        decimals1: '6',
      })

      expect(response).toEqual({
        status: 422,
        body: { ok: false, error: { code: 422, message: expect.stringMatching(/liquidity/) } },
      })
    })

    it('answers 422 to a token with no pool on any path of up to 3 hops', async () => {
      const dex = deployment('altchain')
      const unpooled = privateKeyToAccount(generatePrivateKey()).address
      const response = await quote('altchain', {
        amount: '1',
        address0: dex.token('DOGE'),
        decimals0: '8',
        address1: unpooled,
        decimals1: '18',
      })

      expect(response.status).toBe(422)
    })

    it('answers 422 for the native coin against its own wrapped token', async () => {
      const response = await quote('altchain', {
        amount: '1',
        address0: NATIVE_COIN,
        decimals0: '18',
        address1: deployment('altchain').wrappedNative,
        decimals1: '18',
      })

      expect(response.status).toBe(422)
      expect(response.body.error?.message).toMatch(/one asset/)
    })
  })

  describe('input', () => {
    const valid = () => ({
      amount: '1',
      address0: deployment('ethereum').token('LINK'),
      decimals0: '18',
      address1: deployment('ethereum').token('USDC'),
      decimals1: '6',
    })

    it.each([
      ['a short address', { address0: '0x1234' }, 'query.address0'],
      ['a non-hex address', { address1: `0x${'g'.repeat(40)}` }, 'query.address1'],
      ['decimals 37', { decimals0: '37' }, 'query.decimals0'],
      ['decimals -1', { decimals1: '-1' }, 'query.decimals1'],
      ['an exponent', { amount: '1e5' }, 'query.amount'],
      ['a negative amount', { amount: '-1' }, 'query.amount'],
      ['a zero amount', { amount: '0.000' }, 'query.amount'],
      ['a comma', { amount: '1,5' }, 'query.amount'],
      ['more fraction digits than decimals0', { amount: '1.5', decimals0: '0' }, 'query.amount'],
      [
        'the same token twice',
        { address1: deployment('ethereum').token('LINK') },
        'query.address1',
      ],
      [
        'the native coin with 6 decimals',
        { address0: NATIVE_COIN, decimals0: '6' },
        'query.decimals0',
      ],
      ['slippage above 5000 bps', { slippageBps: '5001' }, 'query.slippageBps'],
      ['a bad recipient', { recipient: 'me' }, 'query.recipient'],
    ])('answers 400 for %s', async (_, override, path) => {
      const response = await quote('ethereum', { ...valid(), ...override })

      expect(response.status).toBe(400)
      expect(response.body.error).toMatchObject({
        code: 400,
        details: expect.arrayContaining([expect.objectContaining({ path })]),
      })
    })

    // DECISIONS §10.1: a parameter the stage does not know is never quoted without (`type` is
    // known now: tests/functions/swap/exactOutInput.test.ts).
    it('answers 400 naming unknown parameters such as tradeType, and quotes nothing', async () => {
      const response = await quote('ethereum', {
        ...valid(),
        tradeType: 'EXACT_OUTPUT',
        side: 'buy',
      })

      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        ok: false,
        error: expect.objectContaining({
          code: 400,
          details: [
            {
              path: 'query',
              message:
                'unknown query parameters "tradeType", "side"; the query takes only amount, ' +
                'address0, decimals0, address1, decimals1, slippageBps, recipient, type',
            },
          ],
        }),
      })
    })

    it('does not quote a parameter name that does not read as a name', async () => {
      const secret = `0x${'ab'.repeat(32)}`
      const response = await quote('ethereum', { ...valid(), [secret]: '1' })

      expect(response.status).toBe(400)
      expect(JSON.stringify(response.body)).not.toContain(secret)
      expect(response.body.error?.details).toEqual([
        { path: 'query', message: expect.stringMatching(/^unknown query parameter; the query/) },
      ])
    })

    it('answers 400 naming every missing field', async () => {
      const response = await quote('altchain', {})

      const paths = (response.body.error?.details as Array<{ path: string }>).map((d) => d.path)
      expect(response.status).toBe(400)
      expect(paths.sort()).toEqual(
        ['amount', 'address0', 'decimals0', 'address1', 'decimals1']
          .map((f) => `query.${f}`)
          .sort(),
      )
    })
  })
})
