import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hash,
  type Hex,
  isAddressEqual,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
  zeroAddress,
} from 'viem'
import { uniswapV2SwapAbi } from '../chain/abis'
import { loadChainConfig } from '../config'
import type { NetworkName } from '../networkNames'
import { NATIVE_COIN } from '../constants'
import { BadRequest, Unprocessable } from '../errors'
import { checkSwapRouterCall, type SubmittedPermit } from './checkSwapRouterCall'
import type { KnownTokens } from './knownTokens'
import type { TransactionKind } from './unsignedTransaction'

/** A submitted transaction that passed every check, with what its trade records. */
export interface CheckedTransaction {
  raw: Hex
  hash: Hash
  nonce: number
  kind: TransactionKind
  /** The trade's counterparty: the router (approval, swap) or the recipient (transfer). */
  counterparty: Address
  /** The token that moves, or NATIVE_COIN. */
  token: Address
  /** Base units of `token`. */
  amount: bigint
  isNativeTransfer: boolean
  /** A swap's selfPermit, verified against the chain before anything is sent (checkPermit). */
  permit?: SubmittedPermit
}

export interface CheckSubmittedParameters {
  network: NetworkName
  /** The session's wallet: every transaction must be signed by it. */
  wallet: Address
  transactions: readonly Hex[]
}

type Parsed = ReturnType<typeof parseTransaction>
type Classified = Omit<CheckedTransaction, 'raw' | 'hash' | 'nonce'>

function decodeOrUndefined<Result>(decode: () => Result): Result | undefined {
  try {
    return decode()
  } catch {
    return undefined
  }
}

/** Decodes a transaction (400 when it is not a signed serialized EIP-2718 transaction). */
function parse(raw: Hex, index: number): Parsed {
  const parsed = decodeOrUndefined(() => parseTransaction(raw))
  const path = `body.transactions.${index}`
  if (!parsed) {
    throw new BadRequest('the request is not valid', [
      { path, message: 'is not a serialized transaction' },
    ])
  }
  if (parsed.r === undefined || parsed.s === undefined) {
    throw new BadRequest('the request is not valid', [{ path, message: 'is not signed' }])
  }
  return parsed
}

/**
 * What a call to the router may be: one of its swaps of known tokens (none outside the catalog
 * runs code for a submit), paying out to the wallet.
 */
function routerSwap(
  parsed: Parsed,
  wallet: Address,
  tokens: KnownTokens,
  refuse: (why: string) => never,
): Classified {
  const call = decodeOrUndefined(() =>
    decodeFunctionData({ abi: uniswapV2SwapAbi, data: parsed.data ?? '0x' }),
  )
  if (!call) refuse('calls a router function the service does not prepare')
  const value = parsed.value ?? 0n
  const router = parsed.to as Address
  const unknown = swapPath(parsed).find((token) => !tokens.isKnown(token))
  if (unknown) refuse(`swaps ${getAddress(unknown)}, not a catalog token`)
  if (
    call.functionName === 'swapExactETHForTokens' ||
    call.functionName === 'swapExactETHForTokensSupportingFeeOnTransferTokens'
  ) {
    const [, , recipient] = call.args
    if (!isAddressEqual(recipient, wallet)) refuse('pays the swap out to another address')
    if (value === 0n) refuse(`sends no native coin to ${call.functionName}`)
    return {
      kind: 'swap',
      counterparty: router,
      token: NATIVE_COIN,
      amount: value,
      isNativeTransfer: true,
    }
  }
  const [amountIn, , path, recipient] = call.args
  if (!isAddressEqual(recipient, wallet)) refuse('pays the swap out to another address')
  if (value !== 0n) refuse(`sends native coin with ${call.functionName}, which takes none`)
  const [tokenIn] = path
  if (!tokenIn) refuse('swaps along an empty path')
  return {
    kind: 'swap',
    counterparty: router,
    token: tokenIn,
    amount: amountIn,
    isNativeTransfer: false,
  }
}

/**
 * What a call to the SwapRouter02 (DECISIONS §8.1) may be: one multicall of the swaps the service
 * builds, paying the wallet (checkSwapRouterCall), along catalog tokens only.
 */
function swapRouterSwap(
  parsed: Parsed,
  network: NetworkName,
  wallet: Address,
  tokens: KnownTokens,
  refuse: (why: string) => never,
): Classified {
  const router = getAddress(parsed.to as Address)
  const {
    token,
    amount,
    tokens: named,
    permit,
  } = checkSwapRouterCall({
    data: parsed.data ?? '0x',
    value: parsed.value ?? 0n,
    wallet,
    router,
    wrappedNative: loadChainConfig(network).wrappedNative,
    refuse,
  })
  const unknown = named.find((address) => !tokens.isKnown(address))
  if (unknown) refuse(`swaps ${getAddress(unknown)}, not a catalog token`)
  return {
    kind: 'swap',
    counterparty: router,
    token,
    amount,
    isNativeTransfer: token === NATIVE_COIN,
    ...(permit && { permit }),
  }
}

/** What swapRouterSwap would find, without refusing (the reads before the checks name it). */
function swapRouterCallOrUndefined(parsed: Parsed, network: NetworkName, wallet: Address) {
  return decodeOrUndefined(() =>
    checkSwapRouterCall({
      data: parsed.data ?? '0x',
      value: parsed.value ?? 0n,
      wallet,
      router: parsed.to as Address,
      wrappedNative: loadChainConfig(network).wrappedNative,
      refuse: (why) => {
        throw new Error(why)
      },
    }),
  )
}

/**
 * What a call to a known token may be: `approve` of a router (the V2 router, or the SwapRouter02
 * where configured), or `transfer`.
 */
function tokenCall(
  parsed: Parsed,
  routers: readonly Address[],
  refuse: (why: string) => never,
): Classified {
  const token = parsed.to as Address
  const call = decodeOrUndefined(() =>
    decodeFunctionData({ abi: erc20Abi, data: parsed.data ?? '0x' }),
  )
  if (call?.functionName !== 'approve' && call?.functionName !== 'transfer') {
    refuse(`calls a function of token ${getAddress(token)} the service does not prepare`)
  }
  if ((parsed.value ?? 0n) !== 0n)
    refuse(`sends native coin with ${call.functionName}, which takes none`)
  const [target, amount] = call.args
  if (call.functionName === 'approve') {
    const spender = routers.find((router) => isAddressEqual(target, router))
    if (!spender) refuse('approves a spender other than the router')
    return { kind: 'approval', counterparty: spender, token, amount, isNativeTransfer: false }
  }
  if (isAddressEqual(target, zeroAddress) || isAddressEqual(target, token)) {
    refuse('transfers to the zero address or to the token contract itself')
  }
  return { kind: 'transfer', counterparty: target, token, amount, isNativeTransfer: false }
}

/** The submitted transactions decoded, their signers recovered: local work, before any read. */
export interface DecodedSubmission {
  network: NetworkName
  wallet: Address
  transactions: readonly Hex[]
  parsed: Parsed[]
  signers: (Address | undefined)[]
  /**
   * Contracts other than the router they call, and the tokens of the router swaps' paths: the
   * catalog tells which are known tokens.
   */
  contracts: Address[]
  /** The tokens whose amounts the trades record (their decimals are read), without the coin. */
  tokensMoved: Address[]
}

/** The tokens of a router swap's path (before any check); none when it is not one. */
function swapPath(parsed: Parsed): Address[] {
  const call = decodeOrUndefined(() =>
    decodeFunctionData({ abi: uniswapV2SwapAbi, data: parsed.data ?? '0x' }),
  )
  if (!call) return []
  const path = call.args[call.functionName.startsWith('swapExactETHFor') ? 1 : 2]
  return Array.isArray(path) ? [...(path as Address[])] : []
}

/** The token a transaction moves, as its trade would record it (before any check). */
function tokenMovedBy(parsed: Parsed, router: Address): Address | undefined {
  if (!parsed.to) return undefined
  if (!isAddressEqual(parsed.to, router)) {
    return parsed.data && parsed.data !== '0x' ? parsed.to : NATIVE_COIN
  }
  const call = decodeOrUndefined(() =>
    decodeFunctionData({ abi: uniswapV2SwapAbi, data: parsed.data ?? '0x' }),
  )
  if (!call) return undefined
  if (call.functionName.startsWith('swapExactETHFor')) return NATIVE_COIN
  const path = call.args[2]
  return Array.isArray(path) ? (path[0] as Address | undefined) : undefined
}

/**
 * Decodes each signed transaction (400 when one is not a signed serialized EIP-2718
 * transaction) and recovers its signer: local work. What the checks will need to read is named:
 * the contracts called (the catalog) and the tokens moved (their decimals).
 */
export async function decodeSubmitted({
  network,
  wallet,
  transactions,
}: CheckSubmittedParameters): Promise<DecodedSubmission> {
  const { router, swapRouter } = loadChainConfig(network)
  const parsed = transactions.map(parse)
  const signers = await Promise.all(
    transactions.map((raw) =>
      recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized }).catch(
        () => undefined,
      ),
    ),
  )
  const toSwapRouter = (transaction: Parsed) =>
    swapRouter !== undefined && transaction.to !== undefined && transaction.to !== null
      ? isAddressEqual(transaction.to, swapRouter)
      : false
  const contracts = parsed.flatMap((transaction) => {
    if (toSwapRouter(transaction)) {
      return swapRouterCallOrUndefined(transaction, network, wallet)?.tokens ?? []
    }
    return transaction.to && !isAddressEqual(transaction.to, router)
      ? [transaction.to]
      : swapPath(transaction)
  })
  const moved = parsed.map((transaction) =>
    toSwapRouter(transaction)
      ? swapRouterCallOrUndefined(transaction, network, wallet)?.token
      : tokenMovedBy(transaction, router),
  )
  const tokensMoved = [
    ...new Set(
      moved
        .filter((token): token is Address => token !== undefined && token !== NATIVE_COIN)
        .map((token) => token.toLowerCase() as Address),
    ),
  ]
  return { network, wallet, transactions, parsed, signers, contracts, tokensMoved }
}

const refuser =
  (index: number) =>
  (why: string): never => {
    throw new Unprocessable(`transaction ${index + 1} ${why}; nothing was sent`)
  }

/** The checks of one transaction that need nothing read: type, signer, chain id, nonce, target. */
function checkSignedOne(decoded: DecodedSubmission, index: number): { nonce: number; to: Address } {
  const { network, wallet, parsed, signers } = decoded
  const { chainId } = loadChainConfig(network)
  const refuse = refuser(index)
  const transaction = parsed[index] as Parsed
  if (transaction.type !== 'eip1559') refuse(`is of type ${transaction.type}, not eip1559`)
  const signer = signers[index]
  if (!signer || !isAddressEqual(signer, wallet)) refuse('is not signed by the signed-in wallet')
  if (transaction.chainId !== chainId) {
    refuse(`is for chain id ${transaction.chainId}, not ${network}'s ${chainId}`)
  }
  const nonce = transaction.nonce ?? 0
  const first = parsed[0]?.nonce ?? 0
  if (nonce !== first + index) refuse(`has nonce ${nonce}; the nonces must be consecutive`)
  const to = transaction.to
  if (!to) return refuse('creates a contract')
  return { nonce, to }
}

/**
 * The checks that need nothing read (type, signer, chain id, consecutive nonces, no contract
 * creation), for every transaction: run before any read, so a transaction of another wallet or
 * chain costs no call (DECISIONS §8.2). 422 as checkSubmitted.
 */
export function checkSigned(decoded: DecodedSubmission): void {
  decoded.parsed.forEach((_transaction, index) => checkSignedOne(decoded, index))
}

/**
 * Checks each decoded transaction before anything is broadcast (DECISIONS §7.3): an EIP-1559
 * transaction of the network's chain id, signed by the session's wallet, sent to the router (one
 * of its swaps, paying the wallet) or the SwapRouter02 where configured (checkSwapRouterCall), to
 * a catalog token (`approve` of either router or `transfer`)
 * or, with empty data, a plain native transfer; value only with the native coin's swaps and
 * transfers; nonces consecutive. `tokens`: the catalog's answer for `decoded.contracts`. One the
 * service would not have prepared is 422. The first nonce is checked against the chain by the
 * caller.
 */
export function checkSubmitted(
  decoded: DecodedSubmission,
  tokens: KnownTokens,
): CheckedTransaction[] {
  const { network, wallet, transactions, parsed } = decoded
  const { router, swapRouter } = loadChainConfig(network)
  const routers = swapRouter ? [router, swapRouter] : [router]
  return parsed.map((transaction, index) => {
    const refuse = refuser(index)
    const { nonce, to } = checkSignedOne(decoded, index)
    const data = transaction.data ?? '0x'
    const raw = transactions[index] as Hex
    const checked = { raw, hash: keccak256(raw), nonce }
    if (isAddressEqual(to, router))
      return { ...checked, ...routerSwap(transaction, wallet, tokens, refuse) }
    if (swapRouter && isAddressEqual(to, swapRouter)) {
      return { ...checked, ...swapRouterSwap(transaction, network, wallet, tokens, refuse) }
    }
    if (data !== '0x') {
      if (!tokens.isKnown(to)) {
        refuse(`calls ${getAddress(to)}, neither the router nor a catalog token of ${network}`)
      }
      return { ...checked, ...tokenCall(transaction, routers, refuse) }
    }
    const value = transaction.value ?? 0n
    if (isAddressEqual(to, zeroAddress)) refuse('sends the native coin to the zero address')
    if (tokens.isKnown(to)) refuse(`sends the native coin to token ${getAddress(to)}`)
    if (value === 0n) refuse('has neither data nor value')
    return {
      ...checked,
      kind: 'transfer',
      counterparty: to,
      token: NATIVE_COIN,
      amount: value,
      isNativeTransfer: true,
    }
  })
}
