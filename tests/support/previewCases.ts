import fc from 'fast-check'
import { type Address, encodeErrorResult, getAddress, parseAbi, parseUnits } from 'viem'
import { NATIVE_COIN } from '../../lib/constants'
import { NETWORKS, type NetworkName } from '../../lib/networkNames'
import type { PreviewIssue } from '../../lib/preview/previewSequence'
import type { PrepareOperation } from './clientSigningRoutes'
import { deployment } from './devnetAccounts'
import { byCatalog } from './networkCases'
import type { PreparedTransaction } from './signPrepared'

// The generated prepares of tests/functions/clientSigning/previewGenerated.test.ts: what each
// case is, the body it sends, and the issues its answer must name (DECISIONS §10.2).

/** What the wallet lacks: nothing, token0 (or the token sent), the coin sent, or gas alone. */
export type Shortage = 'none' | 'token' | 'native' | 'gas'

export interface SwapCase {
  kind: 'swap'
  network: NetworkName
  from: string
  to: string
  type: 'exactIn' | 'exactOut'
  /** 1..100: the share of the pair's typical size traded. */
  percent: number
  /** The router's allowance before: none, short of the swap (not zero), enough, or a permit. */
  allowance: 'none' | 'short' | 'enough' | 'permit'
  shortage: Shortage
  /** 0..99: the share of what is needed that a short wallet holds. */
  held: number
}

export interface TransferCase {
  kind: 'transfer'
  network: NetworkName
  token: string
  percent: number
  shortage: Shortage
  held: number
}

/** A native transfer to a contract that refuses it: the router (`Not WETH9`) or a token. */
export interface RevertCase {
  kind: 'revert'
  network: NetworkName
  target: string
  percent: number
}

export type PreviewCase = SwapCase | TransferCase | RevertCase

/** A typical trade of each symbol in whole units (a few hundred USD of the demo prices). */
const SIZES = {
  ethereum: { NATIVE: '0.1', USDC: '200', WBTC: '0.004', LINK: '10', UNI: '30', USDT: '200' },
  altchain: { NATIVE: '0.5', USDC: '200', CAKE: '100', BTCB: '0.004', DOGE: '2000', USDT: '200' },
} as const

/** The zoo's tokens, the same on every devnet. */
const ZOO_SIZES = { FOT: '300', WHOLE: '5', DEEP: '10000' } as const

const sizesOf = (network: NetworkName): Record<string, string> => ({
  ...byCatalog(network, SIZES),
  ...ZOO_SIZES,
})

export function symbolsOf(network: NetworkName): string[] {
  return Object.keys(sizesOf(network))
}

/** The symbol the wallet spends. */
export const fromOf = (testCase: PreviewCase): string =>
  testCase.kind === 'swap'
    ? testCase.from
    : testCase.kind === 'transfer'
      ? testCase.token
      : 'NATIVE'

export function side(network: NetworkName, symbol: string): { address: Address; decimals: number } {
  if (symbol === 'NATIVE') return { address: NATIVE_COIN, decimals: 18 }
  const dex = deployment(network)
  if (symbol === 'USDC') return { address: dex.usdStablecoin, decimals: 6 }
  const token = [...dex.tokens, ...dex.zoo].find((candidate) => candidate.symbol === symbol)
  if (!token) throw new Error(`no ${symbol} on ${network}`)
  return { address: getAddress(token.address), decimals: token.decimals }
}

/** `percent` of the symbol's typical size, in base units (at least 1). */
export function sizeOf(network: NetworkName, symbol: string, percent: number): bigint {
  const whole = sizesOf(network)[symbol]
  if (whole === undefined) throw new Error(`no size for ${symbol}`)
  return (parseUnits(whole, side(network, symbol).decimals) * BigInt(percent)) / 100n || 1n
}

export function formatBase(amount: bigint, decimals: number): string {
  const text = amount.toString().padStart(decimals + 1, '0')
  const whole = text.slice(0, text.length - decimals)
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}

const percent = fc.integer({ min: 1, max: 100 })
const held = fc.integer({ min: 0, max: 99 })

/**
 * The percent, raised to 40-100 for an exact input into WHOLE (40 USD each): one worth less than
 * a WHOLE buys nothing (422, no path). Exact outputs into and from WHOLE take any percent: those
 * of a base unit, and those whose input is under 1 WHOLE, were 422 "no liquidity path" (found
 * here, fixed in lib/routing/search/searchSplitExactOut.ts).
 */
function sized({
  to,
  type,
  percent,
}: Omit<SwapCase, 'kind' | 'network' | 'allowance' | 'shortage' | 'from'>): number {
  const whole = to === 'WHOLE' && type === 'exactIn'
  return whole ? 40 + Math.floor((percent * 3) / 5) : percent
}

function swapCase(network: NetworkName) {
  const symbols = symbolsOf(network)
  return fc
    .record({
      from: fc.constantFrom(...symbols),
      to: fc.constantFrom(...symbols),
      type: fc.constantFrom('exactIn' as const, 'exactOut' as const),
      percent,
      held,
    })
    .filter(({ from, to }) => from !== to)
    .map((drawn) => ({ kind: 'swap' as const, network, ...drawn }))
}

/** A swap of ample balance, with no allowance or enough of one. */
const ampleSwap = (network: NetworkName) =>
  fc
    .tuple(swapCase(network), fc.constantFrom('none' as const, 'enough' as const))
    .map(([drawn, allowance]): SwapCase => ({
      ...drawn,
      allowance: drawn.from === 'NATIVE' ? 'none' : allowance,
      shortage: 'none',
    }))

/** A token swap whose router allowance is short of it but not zero: two approvals first. */
const shortAllowanceSwap = (network: NetworkName) =>
  swapCase(network)
    .filter(({ from }) => from !== 'NATIVE')
    .map((drawn): SwapCase => ({ ...drawn, allowance: 'short', shortage: 'none' }))

/** A swap from the permit token (USDC): the permit offered, signed, and the one swap mined. */
const permitSwap = (network: NetworkName) =>
  swapCase(network)
    .filter(({ to }) => to !== 'USDC')
    .map((drawn): SwapCase => ({ ...drawn, from: 'USDC', allowance: 'permit', shortage: 'none' }))

/** A swap the wallet cannot pay: token0 or the coin short, or no coin for gas. */
const shortSwap = (network: NetworkName) =>
  fc
    .tuple(swapCase(network), fc.constantFrom('token' as const, 'gas' as const))
    .map(([drawn, shortage]): SwapCase => ({
      ...drawn,
      allowance: 'none',
      shortage: drawn.from === 'NATIVE' ? 'native' : shortage,
    }))

const transfer = (network: NetworkName, shortages: Shortage[]) =>
  fc
    .record({
      token: fc.constantFrom(...symbolsOf(network)),
      percent,
      held,
      shortage: fc.constantFrom(...shortages),
    })
    .map((drawn): TransferCase => ({
      kind: 'transfer',
      network,
      ...drawn,
      shortage:
        drawn.shortage === 'none' ? 'none' : drawn.token === 'NATIVE' ? 'native' : drawn.shortage,
    }))

const revert = (network: NetworkName) =>
  fc
    .record({
      target: fc.constantFrom('ROUTER', ...symbolsOf(network).filter((s) => s !== 'NATIVE')),
      percent,
    })
    .map((drawn): RevertCase => ({ kind: 'revert', network, ...drawn }))

/** How many cases of each kind a network gets. */
export const QUOTAS = {
  ampleSwaps: 46,
  shortAllowanceSwaps: 10,
  permitSwaps: 10,
  ampleTransfers: 16,
  shortSwaps: 10,
  shortTransfers: 8,
  reverts: 6,
} as const

const exactly = <T>(arbitrary: fc.Arbitrary<T>, length: number) =>
  fc.array(arbitrary, { minLength: length, maxLength: length })

/** A network's cases, drawn from `seed`. */
export function casesOf(network: NetworkName, seed: number): PreviewCase[] {
  const drawn = fc.tuple(
    exactly(ampleSwap(network), QUOTAS.ampleSwaps),
    exactly(shortAllowanceSwap(network), QUOTAS.shortAllowanceSwaps),
    exactly(permitSwap(network), QUOTAS.permitSwaps),
    exactly(transfer(network, ['none']), QUOTAS.ampleTransfers),
    exactly(shortSwap(network), QUOTAS.shortSwaps),
    exactly(transfer(network, ['token', 'gas']), QUOTAS.shortTransfers),
    exactly(revert(network), QUOTAS.reverts),
  )
  const [sample] = fc.sample(drawn, { seed, numRuns: 1 })
  if (!sample) throw new Error('fast-check drew nothing')
  const [ample, shortAllowance, permit, transfers, shortSwaps, shortTransfers, reverts] = sample
  const symbols = symbolsOf(network)
  const alternate = (index: number): SwapCase['type'] => (index % 2 === 0 ? 'exactIn' : 'exactOut')
  const swaps: SwapCase[] = [
    ...ample.map((swap, index) => covering(swap, index, symbols)),
    ...shortAllowance.map((swap, index) => ({ ...swap, type: alternate(index) })),
    ...permit.map((swap, index) => ({ ...swap, type: alternate(index) })),
    ...shortSwaps.map((swap, index) => shortOf(swap, index, symbols)),
  ]
  return [
    ...swaps.map((swap) => ({ ...swap, percent: sized(swap) })),
    ...transfers.map((sent, index) => ({
      ...sent,
      token: symbols[index % symbols.length] ?? 'NATIVE',
    })),
    ...shortTransfers.map((sent, index) => ({
      ...sent,
      ...(index % 3 === 0 && { token: 'NATIVE', shortage: 'native' as const }),
      ...(index % 3 !== 0 &&
        sent.token === 'NATIVE' && { token: 'USDC', shortage: 'token' as const }),
    })),
    ...reverts.map((sent, index) => (index % 2 === 0 ? { ...sent, target: 'ROUTER' } : sent)),
  ]
}

/**
 * Every symbol in, then out, of an exact input, then of an exact output, before the drawn pairs:
 * whatever the seed, each token, the coin both ways and the fee-on-transfer token are traded
 * (and FOT's exact outputs refused).
 */
function covering(swap: SwapCase, index: number, symbols: string[]): SwapCase {
  const count = symbols.length
  if (index >= 4 * count) return swap
  const symbol = symbols[index % count] ?? 'NATIVE'
  const type = index < 2 * count ? 'exactIn' : 'exactOut'
  const sellsIt = index % (2 * count) < count
  const partner = sellsIt ? swap.to : swap.from
  const other = partner === symbol ? (symbols[(index + 1) % count] ?? 'USDC') : partner
  const [from, to] = sellsIt ? [symbol, other] : [other, symbol]
  return { ...swap, from, to, type, allowance: from === 'NATIVE' ? 'none' : swap.allowance }
}

/** Short of the coin, of token0, of gas, in turn, each of both types. */
function shortOf(swap: SwapCase, index: number, symbols: string[]): SwapCase {
  const shortage = (['native', 'token', 'gas'] as const)[index % 3] ?? 'token'
  const type: SwapCase['type'] = index % 2 === 0 ? 'exactIn' : 'exactOut'
  if (shortage === 'native') {
    const to = swap.to === 'NATIVE' ? (symbols.find((s) => s !== 'NATIVE') ?? 'USDC') : swap.to
    return { ...swap, from: 'NATIVE', to, type, shortage }
  }
  const from = swap.from === 'NATIVE' ? 'USDC' : swap.from
  const to = swap.to === from ? 'NATIVE' : swap.to
  return { ...swap, from, to, type, shortage }
}

/** The prepare route of a case. */
export function operationOf(testCase: PreviewCase): PrepareOperation {
  const { network } = testCase
  if (testCase.kind !== 'swap') return `transfer/tokens/${network}`
  const native = testCase.from === 'NATIVE' || testCase.to === 'NATIVE'
  return native && NETWORKS[network].routes.nativeSwapRoute
    ? `swap/native/${network}`
    : `swap/tokens/${network}`
}

/** An exact output through the fee-on-transfer token: 422 (DECISIONS §10.1). */
export function refusedOf(testCase: PreviewCase): string | undefined {
  if (testCase.kind !== 'swap' || testCase.type !== 'exactOut') return undefined
  if (testCase.from !== 'FOT' && testCase.to !== 'FOT') return undefined
  return `no exact-output route between these tokens on ${testCase.network}: a token on the path may take a fee on transfer, and the router has no exact-output swap for such tokens (quote type=exactIn instead)`
}

/** What the native coin the sequence needs: every value and gas limit at the fee cap. */
export function nativeRequired(transactions: readonly PreparedTransaction[]): bigint {
  return transactions.reduce(
    (sum, transaction) =>
      sum + BigInt(transaction.value) + BigInt(transaction.gas) * BigInt(transaction.maxFeePerGas),
    0n,
  )
}

const insufficientBalanceError = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
])

/** The reason a short token transfer reverts with, as the preview words it (revertReason). */
export function shortTransferReason(
  symbol: string,
  owner: Address,
  balance: bigint,
  amount: bigint,
): string {
  if (symbol === 'USDT') return 'balance'
  // The fee-on-transfer token burns its 3 % first, then moves the rest.
  const fee = symbol === 'FOT' ? (amount * 300n) / 10_000n : 0n
  const [left, needed] =
    fee === 0n || balance < fee ? [balance, fee || amount] : [balance - fee, amount - fee]
  const data = encodeErrorResult({
    abi: insufficientBalanceError,
    errorName: 'ERC20InsufficientBalance',
    args: [owner, left, needed],
  })
  return `reverted with data ${data.slice(0, 138)}`
}

export interface Held {
  native: bigint
  token: bigint
  allowance: bigint
}

/**
 * The issues a case's answer must name: the coin short of the sequence's value and gas at the
 * fee cap first (withNativeShortfall), then token0 short, the allowance short, the reverting call.
 */
export function expectedIssues(
  testCase: PreviewCase,
  {
    owner,
    held,
    need,
    transactions,
    permitted = false,
  }: {
    owner: Address
    held: Held
    need: bigint
    transactions: readonly PreparedTransaction[]
    /** Prepared with a signed permit: the allowance it sets is the swap's. */
    permitted?: boolean
  },
): PreviewIssue[] {
  const issues: PreviewIssue[] = []
  const native = nativeRequired(transactions)
  if (held.native < native) {
    issues.push({
      type: 'insufficientBalance',
      token: getAddress(NATIVE_COIN),
      required: native.toString(),
      available: held.native.toString(),
    })
  }
  if (testCase.kind === 'revert') {
    const reason = testCase.target === 'ROUTER' ? 'Not WETH9' : 'reverted without a reason'
    return [...issues, { type: 'simulationFailed', transaction: 0, kind: 'transfer', reason }]
  }
  const symbol = fromOf(testCase)
  if (symbol === 'NATIVE') return issues
  const token = side(testCase.network, symbol).address
  const short = held.token < need
  if (short) {
    issues.push({
      type: 'insufficientBalance',
      token,
      required: need.toString(),
      available: held.token.toString(),
    })
  }
  if (testCase.kind === 'transfer') {
    if (!short) return issues
    const reason = shortTransferReason(symbol, owner, held.token, need)
    return [...issues, { type: 'simulationFailed', transaction: 0, kind: 'transfer', reason }]
  }
  if (held.allowance < need && !permitted) {
    issues.push({
      type: 'insufficientAllowance',
      token,
      spender: getAddress(deployment(testCase.network).swapRouter),
      required: need.toString(),
      available: held.allowance.toString(),
    })
  }
  if (short) {
    const swapIndex = transactions.length - 1
    issues.push({ type: 'simulationFailed', transaction: swapIndex, kind: 'swap', reason: 'STF' })
  }
  return issues
}
