import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  formatUnits,
  getCreate2Address,
  type Hex,
  keccak256,
  parseUnits,
  toHex,
} from 'viem'
import { swapRouterCall } from '../chain/swapRouterCall'
import type { UnsignedTransaction } from '../clientSigning/unsignedTransaction'
import { NATIVE_COIN } from '../constants'
import type { NetworkName } from '../networkNames'
import { NETWORK_ENTRIES, type NetworkEntry } from '../networks'
import { WALLET } from './exampleValues'
import { swapPreviewExample, transferPreviewExample } from './previewExamples'

// The examples of a network's routes (quote, swaps, transfer, prepare, submit), built from its
// entry in the network table (lib/networks.ts) alone: its chain id and router, its wrapped coin
// and stablecoin, and the pools its DEX flavours put between them, at the addresses the V3
// factory's pool deployer and the V2 factory create them (CREATE2 of the pair and the init code
// hash, as routers derive them: ethereum's are mainnet's WETH/USDC pools). Amounts follow the
// entry's illustrative price and gas price; they are not market data.

/** Each example's deadline (§4: 20 minutes after the quote), fixed so the examples are stable. */
const DEADLINE = 1_795_000_000n
const BLOCK_NUMBER = 21_004_510
const RECIPIENT: Address = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'

interface ExampleHop {
  protocol: 'v2' | 'v3'
  pool: Address
  fee?: number
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
}

interface ExampleSwap {
  chainId: number
  swapRouter: Address
  symbolIn: string
  /** Whole units of the input (18 decimals: the wrapped or native coin). */
  amountIn: string
  symbolOut: string
  decimalsOut: number
  slippageBps: number
  /** Each leg of the split with its share; legs share no pool. */
  route: { shareBps: number; hops: ExampleHop[] }[]
  priceImpactBps: number
  gasEstimate: number
  gasCostToken1: bigint
  nativeIn: boolean
  fees: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex }
}

function unsigned(
  swap: Pick<ExampleSwap, 'chainId' | 'fees'>,
  nonce: number,
  fields: {
    kind: UnsignedTransaction['kind']
    description: string
    gas: bigint
    to: Address
    data: Hex
    value?: bigint
  },
): UnsignedTransaction {
  return {
    kind: fields.kind,
    description: fields.description,
    type: 'eip1559',
    chainId: swap.chainId,
    nonce,
    gas: toHex(fields.gas),
    ...swap.fees,
    to: fields.to,
    data: fields.data,
    value: toHex(fields.value ?? 0n),
  }
}

/** The quote fields of an example swap: the seed's, the route's (§8.1), and its router call. */
function exampleQuote(swap: ExampleSwap) {
  const amountOut = swap.route.reduce(
    (sum, leg) => sum + (leg.hops[leg.hops.length - 1]?.amountOut ?? 0n),
    0n,
  )
  const amountOutMin = (amountOut * BigInt(10_000 - swap.slippageBps)) / 10_000n
  const largest = swap.route[0]?.hops ?? []
  const call = swapRouterCall({
    legs: swap.route.map((leg) => ({
      amountIn: leg.hops[0]?.amountIn ?? 0n,
      hops: leg.hops.map((hop) => ({ ...hop, fee: hop.fee ?? 0 })),
    })),
    amountOutMin,
    recipient: WALLET,
    deadline: DEADLINE,
    nativeIn: swap.nativeIn,
    nativeOut: false,
  })
  return {
    call,
    amountOutMin,
    quote: {
      quote: Number(formatUnits(amountOut, swap.decimalsOut)),
      amount: Number(swap.amountIn),
      decimal: swap.decimalsOut,
      amountOutMin: toHex(amountOutMin),
      // The service names the wrapped coin where the native coin goes in (lib/swap/routeAnswer.ts).
      path: [largest[0]?.tokenIn ?? NATIVE_COIN, ...largest.map((hop) => hop.tokenOut)],
      amountOut: amountOut.toString(),
      route: swap.route.map((leg) => ({
        shareBps: leg.shareBps,
        hops: leg.hops.map((hop) => ({
          ...hop,
          amountIn: hop.amountIn.toString(),
          amountOut: hop.amountOut.toString(),
        })),
      })),
      priceImpactBps: swap.priceImpactBps,
      gasEstimate: swap.gasEstimate,
      gasCostToken1: swap.gasCostToken1.toString(),
      to: swap.swapRouter,
      blockNumber: BLOCK_NUMBER,
    },
  }
}

/** A prepare example: the approval when `approve`, then the swap through the router. */
function swapExample(swap: ExampleSwap, nonce: number, approve: boolean, wrapped: Address) {
  const tokenIn = swap.route[0]?.hops[0]?.tokenIn ?? NATIVE_COIN
  const amountIn = parseUnits(swap.amountIn, 18)
  const { call, amountOutMin, quote } = exampleQuote(swap)
  const approval = unsigned(swap, nonce, {
    kind: 'approval',
    description: `approve ${swap.amountIn} ${swap.symbolIn} for the router`,
    gas: 69_300n,
    to: tokenIn,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [swap.swapRouter, amountIn],
    }),
  })
  return {
    body: {
      amount: swap.amountIn,
      address0: swap.nativeIn ? NATIVE_COIN : tokenIn,
      decimals0: 18,
      address1: quote.path[quote.path.length - 1] as Address,
      decimals1: swap.decimalsOut,
      slippageBps: swap.slippageBps,
    },
    result: {
      transactions: [
        ...(approve ? [approval] : []),
        unsigned(swap, approve ? nonce + 1 : nonce, {
          kind: 'swap',
          description: `swap ${swap.amountIn} ${swap.symbolIn} for at least ${formatUnits(amountOutMin, swap.decimalsOut)} ${swap.symbolOut}`,
          gas: 231_000n,
          to: swap.swapRouter,
          value: call.value,
          data: call.data,
        }),
      ],
      quote,
      preview: swapPreviewExample({
        blockNumber: BLOCK_NUMBER,
        owner: WALLET,
        router: swap.swapRouter,
        wrapped,
        nativeIn: swap.nativeIn,
        amountIn,
        hops: swap.route.flatMap((leg) => leg.hops),
        approval: approve,
        // What the example's gas limits hold, less their headroom (lib/send/gasLimit.ts).
        gas: { approval: 46_200n, swap: 154_000n },
      }),
    },
    call,
  }
}

const sorted = (a: Address, b: Address): [Address, Address] =>
  BigInt(a) < BigInt(b) ? [a, b] : [b, a]

/** A V3 pool's address: CREATE2 of the pool deployer, (token0, token1, fee), the init code. */
export function v3PoolAddress(
  v3: NetworkEntry['deployed']['v3'],
  a: Address,
  b: Address,
  fee: number,
) {
  return getCreate2Address({
    from: v3.poolDeployer,
    salt: keccak256(
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }],
        [...sorted(a, b), fee],
      ),
    ),
    bytecodeHash: v3.poolInitCodeHash,
  })
}

/** A V2 pair's address: CREATE2 of the factory, (token0, token1) packed, the init code. */
export function v2PairAddress(v2: NetworkEntry['deployed']['v2'], a: Address, b: Address) {
  return getCreate2Address({
    from: v2.factory,
    salt: keccak256(encodePacked(['address', 'address'], sorted(a, b))),
    bytecodeHash: v2.pairInitCodeHash,
  })
}

/** `amount` (18 decimals) of the native coin in stablecoin base units, less a fee in millionths. */
function priced(entry: NetworkEntry, amount: bigint, feeMillionths: number): bigint {
  const { nativePrice, stablecoin } = entry.examples
  const value = (amount * BigInt(nativePrice) * 10n ** BigInt(stablecoin.decimals)) / 10n ** 18n
  return (value * BigInt(1_000_000 - feeMillionths)) / 1_000_000n
}

/** What every example of a network shares: its entry, coins, pools, fees and hops. */
function exampleSetting(network: NetworkName) {
  const entry = NETWORK_ENTRIES[network]
  const { deployed, examples } = entry
  const wrapped = deployed.wrappedNative
  const stable = deployed.usdStablecoin
  // The tier wrapped-coin/stablecoin pools usually trade at: the first of at least 0.05 %.
  const fee = deployed.v3.feeTiers.find((tier) => tier >= 500) ?? deployed.v3.feeTiers[0] ?? 500
  const v3Pool = v3PoolAddress(deployed.v3, wrapped, stable, fee)
  const v2Pair = v2PairAddress(deployed.v2, wrapped, stable)
  const gasCost = (gas: number) => priced(entry, BigInt(gas) * examples.gasPriceWei, 0)
  const common = {
    chainId: deployed.chainId,
    swapRouter: deployed.swapRouter,
    symbolOut: examples.stablecoin.symbol,
    decimalsOut: examples.stablecoin.decimals,
    fees: {
      maxFeePerGas: toHex(examples.gasPriceWei),
      maxPriorityFeePerGas: toHex(examples.gasPriceWei / 10n),
    },
  }
  const hop = (protocol: 'v2' | 'v3', amountIn: bigint): ExampleHop => ({
    protocol,
    pool: protocol === 'v3' ? v3Pool : v2Pair,
    ...(protocol === 'v3' && { fee }),
    tokenIn: wrapped,
    tokenOut: stable,
    amountIn,
    amountOut: priced(
      entry,
      amountIn,
      // The fee, and a few bps of price impact.
      (protocol === 'v3' ? fee : deployed.v2.feeBps * 100) + 300,
    ),
  })
  return { entry, wrapped, stable, gasCost, common, hop }
}

type ExampleSetting = ReturnType<typeof exampleSetting>

/** 0.5 of the wrapped coin for the stablecoin, split over V3 (75 %) and V2 (25 %). */
function tokenSwapExample({ entry, wrapped, gasCost, common, hop }: ExampleSetting) {
  return swapExample(
    {
      ...common,
      symbolIn: `W${entry.nativeCurrency.symbol}`,
      amountIn: '0.5',
      slippageBps: 50,
      route: [
        { shareBps: 7_500, hops: [hop('v3', parseUnits('0.375', 18))] },
        { shareBps: 2_500, hops: [hop('v2', parseUnits('0.125', 18))] },
      ],
      priceImpactBps: 3,
      gasEstimate: 250_000,
      gasCostToken1: gasCost(250_000),
      nativeIn: false,
    },
    7,
    true,
    wrapped,
  )
}

/** 0.2 of the native coin for the stablecoin in the V3 pool: the router wraps the value. */
function nativeSwapExample({ entry, wrapped, gasCost, common, hop }: ExampleSetting) {
  return swapExample(
    {
      ...common,
      symbolIn: entry.nativeCurrency.symbol,
      amountIn: '0.2',
      slippageBps: 100,
      route: [{ shareBps: 10_000, hops: [hop('v3', parseUnits('0.2', 18))] }],
      priceImpactBps: 3,
      gasEstimate: 140_000,
      gasCostToken1: gasCost(140_000),
      nativeIn: true,
    },
    3,
    false,
    wrapped,
  )
}

/** 12.5 of the stablecoin to RECIPIENT. */
function transferExample({ entry, stable, common }: ExampleSetting) {
  const { stablecoin } = entry.examples
  const amount = parseUnits('12.5', stablecoin.decimals)
  return {
    body: { to: RECIPIENT, amount: '12.5', token: stable, decimals: stablecoin.decimals },
    result: {
      transactions: [
        unsigned(common, 4, {
          kind: 'transfer',
          description: `transfer 12.5 ${stablecoin.symbol} to ${RECIPIENT}`,
          gas: 78_000n,
          to: stable,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [RECIPIENT, amount],
          }),
        }),
      ],
      preview: transferPreviewExample({
        blockNumber: BLOCK_NUMBER,
        owner: WALLET,
        to: RECIPIENT,
        token: stable,
        amount,
        gasUsed: 52_000n,
      }),
    },
  }
}

/** The quote of the token swap, with its call where the network's quote route gives one. */
function quoteExample(entry: NetworkEntry, tokenSwap: ReturnType<typeof tokenSwapExample>) {
  const { body } = tokenSwap
  return {
    query: {
      amount: body.amount,
      address0: body.address0,
      decimals0: body.decimals0,
      address1: body.address1,
      decimals1: body.decimals1,
      slippageBps: body.slippageBps,
      ...(entry.routes.quoteCall && { recipient: WALLET }),
      type: 'exactIn' as const,
    },
    result: {
      ...tokenSwap.result.quote,
      ...(entry.routes.quoteCall && {
        calldata: tokenSwap.call.data,
        value: toHex(tokenSwap.call.value),
      }),
      gasPriceWei: Number(entry.examples.gasPriceWei),
    },
  }
}

/** Every example of a network's routes, from its table entry. */
export function networkExamples(network: NetworkName) {
  const setting = exampleSetting(network)
  const tokenSwap = tokenSwapExample(setting)
  const nativeSwap = nativeSwapExample(setting)
  const transfer = transferExample(setting)
  const quote = quoteExample(setting.entry, tokenSwap)
  const prepared = (example: typeof tokenSwap) => ({ body: example.body, result: example.result })
  return {
    quote,
    tokenSwap: prepared(tokenSwap),
    nativeSwap: prepared(nativeSwap),
    transfer,
  }
}
