import { type Address, getAddress, isAddressEqual, zeroAddress } from 'viem'
import { onChain } from '../chain/chainError'
import { publicClient } from '../chain/clients'
import {
  type SequenceSimulation,
  simulateSequence,
  type TracedTransfer,
  type Watch,
} from '../chain/simulate'
import { loadChainConfig } from '../config'
import { isNative, NATIVE_COIN } from '../constants'
import type { NetworkName } from '../networkNames'

/** What a transaction of a sequence does: the trade type it is recorded as. */
export type PreviewKind = 'approval' | 'swap' | 'transfer'

/** A transaction of a sequence to preview: the kind names it in an issue. */
export interface PreviewTransaction {
  kind: PreviewKind
  to: Address
  data: `0x${string}`
  value: bigint
}

/** What the wallet must hold and have approved for the sequence (read before, not simulated). */
export interface PreviewNeed {
  token: Address
  amount: bigint
  balance: bigint
  /** The spender and its allowance when the token is pulled by a contract (a swap's router). */
  spender?: Address
  allowance?: bigint
}

export interface PreviewSequenceParameters {
  network: NetworkName
  owner: Address
  transactions: readonly PreviewTransaction[]
  /** The state simulated on (a quote's block): the sequence runs in the block after it. */
  blockNumber: bigint
  need: PreviewNeed
  /** The holders whose balances the eth_call fallback reads (the owner is always read). */
  holders: readonly Address[]
  /** The tokens whose balances the eth_call fallback reads (the native coin is always read). */
  tokens: readonly Address[]
  /** The least `owner` must receive of `token` (a swap's amountOutMin): less is `priceMoved`. */
  minimumOut?: { token: Address; amount: bigint }
}

export type PreviewIssue =
  | { type: 'insufficientBalance'; token: Address; required: string; available: string }
  | {
      type: 'insufficientAllowance'
      token: Address
      spender: Address
      required: string
      available: string
    }
  | { type: 'simulationFailed'; transaction: number; kind: PreviewKind; reason: string }
  | { type: 'priceMoved'; token: Address; minimum: string; simulated: string }

/** What the sequence would do (DECISIONS §10.2); amounts are decimal strings of base units. */
export interface Preview {
  blockNumber: string
  method: SequenceSimulation['method']
  transactions: {
    kind: PreviewKind
    status: 'success' | 'failure'
    gasUsed: string
    reason?: string
  }[]
  gasUsed: string
  /** Per address and token, the change of its balance; the gas fee is not in it. */
  balanceChanges: { address: Address; token: Address; change: string }[]
  allowanceChanges: {
    token: Address
    owner: Address
    spender: Address
    before: string
    after: string
  }[]
  issues: PreviewIssue[]
}

/** The preview and the gas each transaction may need (the most it used before refunds). */
export interface PreviewResult {
  preview: Preview
  gasNeeded: bigint[]
}

/**
 * Simulates the transactions in order on the state of `blockNumber` and says what they would do
 * (DECISIONS §10.2): one RPC call (two when the node lacks eth_simulateV1 the first time). Every
 * issue is reported, none thrown: the caller decides (prepare answers it, a `{key}` route
 * refuses a failing simulation).
 */
export async function previewSequence(
  parameters: PreviewSequenceParameters,
): Promise<PreviewResult> {
  const { network, owner, transactions, blockNumber, need } = parameters
  const spender = need.spender
  const simulation = await onChain(network, () =>
    simulateSequence(publicClient(network), {
      from: owner,
      calls: transactions,
      blockNumber,
      watches: watchesOf(parameters),
      wrappedNative: loadChainConfig(network).wrappedNative,
      // Short of the coin it sends, the wallet is simulated as if it held it: the node would
      // refuse the whole simulation, and the issue says the balance is short.
      ...(isNative(need.token) && need.balance < need.amount && { fund: need.amount }),
    }),
  )
  const balanceChanges = simulation.transfers
    ? changesFromTransfers(simulation.transfers)
    : changesFromWatches(simulation)
  const allowanceChanges = simulation.watched
    .filter(({ watch, before, after }) => watch.spender !== undefined && before !== after)
    .map(({ watch, before, after }) => ({
      token: getAddress(watch.token),
      owner: getAddress(watch.holder),
      spender: getAddress(watch.spender ?? zeroAddress),
      before: before.toString(),
      after: after.toString(),
    }))
  const gasUsed = simulation.calls.map((call) => call.gasUsed)
  const preview: Preview = {
    blockNumber: blockNumber.toString(),
    method: simulation.method,
    // The fallback stops at a failure: the transactions after it are not listed.
    transactions: simulation.calls.flatMap((call, index) => {
      const transaction = transactions[index]
      if (!transaction) return []
      return [
        {
          kind: transaction.kind,
          status: call.status,
          gasUsed: call.gasUsed.toString(),
          ...(call.revertReason !== undefined && { reason: call.revertReason }),
        },
      ]
    }),
    gasUsed: gasUsed.reduce((sum, gas) => sum + gas, 0n).toString(),
    balanceChanges,
    allowanceChanges,
    issues: issuesOf(parameters, simulation, balanceChanges, spender),
  }
  return { preview, gasNeeded: simulation.calls.map((call) => call.maxUsedGas ?? call.gasUsed) }
}

function watchesOf({ owner, need, holders, tokens }: PreviewSequenceParameters): Watch[] {
  const allHolders = unique([owner, ...holders])
  const allTokens = unique([NATIVE_COIN, need.token, ...tokens])
  const balances = allHolders.flatMap((holder) => allTokens.map((token) => ({ token, holder })))
  const allowance =
    need.spender && !isNative(need.token)
      ? [{ token: need.token, holder: owner, spender: need.spender }]
      : []
  return [...balances, ...allowance]
}

function unique(addresses: readonly Address[]): Address[] {
  return addresses.filter(
    (address, index) => addresses.findIndex((other) => isAddressEqual(other, address)) === index,
  )
}

type BalanceChange = Preview['balanceChanges'][number]

/** Net change per (address, token) of the traced transfers; mints and burns count at the holder. */
function changesFromTransfers(transfers: readonly TracedTransfer[]): BalanceChange[] {
  const changes = new Map<string, bigint>()
  const add = (address: Address, token: Address, amount: bigint) => {
    // The zero address holds nothing: a transfer to it is a burn, from it a mint.
    if (isAddressEqual(address, zeroAddress)) return
    const key = `${getAddress(address)}:${getAddress(token)}`
    changes.set(key, (changes.get(key) ?? 0n) + amount)
  }
  for (const { token, from, to, value } of transfers) {
    add(from, token, -value)
    add(to, token, value)
  }
  return sortedChanges(changes)
}

function changesFromWatches(simulation: SequenceSimulation): BalanceChange[] {
  const changes = new Map<string, bigint>()
  for (const { watch, before, after } of simulation.watched) {
    if (watch.spender !== undefined) continue
    changes.set(`${getAddress(watch.holder)}:${getAddress(watch.token)}`, after - before)
  }
  return sortedChanges(changes)
}

function sortedChanges(changes: Map<string, bigint>): BalanceChange[] {
  return [...changes]
    .filter(([, change]) => change !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, change]) => {
      const [address, token] = key.split(':') as [Address, Address]
      return { address, token, change: change.toString() }
    })
}

/** The change of `token` at `address` among a preview's balance changes, 0 when it has none. */
export function changeOf(
  balanceChanges: readonly BalanceChange[],
  address: Address,
  token: Address,
): bigint {
  const found = balanceChanges.find(
    (change) => isAddressEqual(change.address, address) && isAddressEqual(change.token, token),
  )
  return found ? BigInt(found.change) : 0n
}

const PRICE_MOVED = /too little received|insufficient_output_amount/i

function issuesOf(
  { owner, need, minimumOut, transactions }: PreviewSequenceParameters,
  simulation: SequenceSimulation,
  balanceChanges: BalanceChange[],
  spender: Address | undefined,
): PreviewIssue[] {
  const issues: PreviewIssue[] = []
  if (need.balance < need.amount) {
    issues.push({
      type: 'insufficientBalance',
      token: getAddress(need.token),
      required: need.amount.toString(),
      available: need.balance.toString(),
    })
  }
  if (spender && need.allowance !== undefined && need.allowance < need.amount) {
    issues.push({
      type: 'insufficientAllowance',
      token: getAddress(need.token),
      spender: getAddress(spender),
      required: need.amount.toString(),
      available: need.allowance.toString(),
    })
  }
  const failed = simulation.calls.findIndex((call) => call.status === 'failure')
  const failure = simulation.calls[failed]
  const failedKind = transactions[failed]?.kind
  if (failure && failedKind) {
    issues.push({
      type: 'simulationFailed',
      transaction: failed,
      kind: failedKind,
      reason: failure.revertReason ?? 'reverted without a reason',
    })
  }
  if (minimumOut) {
    const received = changeOf(balanceChanges, owner, minimumOut.token)
    const short = failure
      ? PRICE_MOVED.test(failure.revertReason ?? '')
      : received < minimumOut.amount
    if (short) {
      issues.push({
        type: 'priceMoved',
        token: getAddress(minimumOut.token),
        minimum: minimumOut.amount.toString(),
        simulated: received.toString(),
      })
    }
  }
  return issues
}
