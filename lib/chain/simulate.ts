import {
  type Address,
  BaseError,
  decodeErrorResult,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  isAddressEqual,
  MethodNotFoundRpcError,
  parseAbi,
  RpcRequestError,
  zeroAddress,
} from 'viem'
import { call as ethCall, simulateBlocks } from 'viem/actions'
import { isNative, NATIVE_COIN } from '../constants'
import { untrustedCallGas } from './callBudget'
import type { ChainClient } from './clients'
import { type ProbeWatch, SEQUENCE_PROBE_RUNTIME, sequenceProbeAbi } from './sequenceProbe'

/** One transaction of a sequence, as the wallet would send it. */
export interface SequenceCall {
  to: Address
  data: Hex
  value: bigint
}

/** A balance (`spender` absent) or an allowance read before and after the sequence. */
export type Watch = ProbeWatch

export interface SimulateSequenceParameters {
  from: Address
  calls: readonly SequenceCall[]
  /** The state simulated on: the sequence runs in the block after it. */
  blockNumber: bigint
  /**
   * The balances and allowances read before and after. eth_simulateV1 traces every transfer, so
   * it reads only the allowances; the eth_call fallback reads every watch (its only view).
   */
  watches: readonly Watch[]
  /** The wrapped native token: its `Deposit` and `Withdrawal` move balances without `Transfer`. */
  wrappedNative?: Address
  /**
   * A native balance to give `from` for the simulation: a node refuses a whole simulation whose
   * value the sender cannot pay, so a wallet short of it is simulated as if it held this.
   */
  fund?: bigint
}

export interface SimulatedCall {
  status: 'success' | 'failure'
  gasUsed: bigint
  /** The most it used before refunds, where the node reports it: what its gas limit must allow. */
  maxUsedGas?: bigint
  /** The decoded reason of a failure (`Error(string)`, a panic, or the raw data). */
  revertReason?: string
}

/** A value transfer the node traced: an ERC-20 `Transfer` log, or native value (NATIVE_COIN). */
export interface TracedTransfer {
  token: Address
  from: Address
  to: Address
  value: bigint
}

export interface SequenceSimulation {
  method: 'eth_simulateV1' | 'eth_call'
  calls: SimulatedCall[]
  /** Every transfer of the sequence (eth_simulateV1); undefined on the eth_call fallback. */
  transfers?: TracedTransfer[]
  /** Each watch with its value before and after the sequence (after: where it stopped). */
  watched: { watch: Watch; before: bigint; after: bigint }[]
}

// Nodes that answered eth_simulateV1 with "method not found": asked by eth_call for a while, so a
// node without it costs its failed call once per container and period, not on every request.
const WITHOUT_SIMULATE_MS = 10 * 60_000
const withoutSimulate = new WeakMap<ChainClient, number>()

/**
 * Simulates the wallet's transactions in order on the state of `blockNumber` (DECISIONS §10.2):
 * one `eth_simulateV1` with transfer tracing where the node has it, else one `eth_call` with
 * state overrides (SequenceProbe at the wallet's address). Each call carries the gas cap of a
 * call whose target a caller chose. A failure of the node is thrown as viem's error.
 */
export async function simulateSequence(
  client: ChainClient,
  parameters: SimulateSequenceParameters,
): Promise<SequenceSimulation> {
  const gas = untrustedCallGas()
  if ((withoutSimulate.get(client) ?? 0) > Date.now()) {
    return probeSequence(client, parameters, gas)
  }
  try {
    return await simulateV1(client, parameters, gas)
  } catch (error) {
    if (!lacksSimulate(error)) throw error
    withoutSimulate.set(client, Date.now() + WITHOUT_SIMULATE_MS)
    return probeSequence(client, parameters, gas)
  }
}

function lacksSimulate(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    Boolean(
      error.walk(
        (cause) =>
          cause instanceof MethodNotFoundRpcError ||
          (cause instanceof RpcRequestError && cause.code === -32601),
      ),
    )
  )
}

const allowanceWatches = (watches: readonly Watch[]) =>
  watches.filter((watch): watch is Required<Watch> => watch.spender !== undefined)

async function simulateV1(
  client: ChainClient,
  { from, calls, blockNumber, watches, wrappedNative, fund }: SimulateSequenceParameters,
  gas: bigint,
): Promise<SequenceSimulation> {
  const allowances = allowanceWatches(watches)
  // The allowances are read inside the simulated block, before and after the sequence.
  const reads = allowances.map((watch) => ({
    account: from,
    to: watch.token,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'allowance',
      args: [watch.holder, watch.spender],
    }),
    gas,
  }))
  const sequence = calls.map((call) => ({ account: from, ...call, gas }))
  const [block] = await simulateBlocks(client, {
    blocks: [
      {
        calls: [...reads, ...sequence, ...reads],
        ...(fund !== undefined && { stateOverrides: [{ address: from, balance: fund }] }),
      },
    ],
    blockNumber,
    traceTransfers: true,
    validation: false,
  })
  if (!block) throw new BaseError('eth_simulateV1 answered no block')
  const results = block.calls.slice(reads.length, reads.length + calls.length)
  const readValue = (index: number) => {
    const data = block.calls[index]?.data
    return data && data.length > 2 ? BigInt(data) : 0n
  }
  const simulated = results.map((result) => ({
    status: result.status,
    gasUsed: result.gasUsed,
    ...(result.maxUsedGas !== undefined && { maxUsedGas: result.maxUsedGas }),
    ...(result.status === 'failure' && { revertReason: revertReason(result.data) }),
  }))
  const transfers = results.flatMap((result) =>
    result.status === 'success'
      ? (result.logs ?? []).flatMap((log) => transferOf(log, wrappedNative))
      : [],
  )
  const watched = allowances.map((watch, index) => ({
    watch,
    before: readValue(index),
    after: readValue(reads.length + calls.length + index),
  }))
  return { method: 'eth_simulateV1', calls: simulated, transfers, watched }
}

const wrappedAbi = parseAbi([
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
])

/**
 * A traced log as a transfer; eth_simulateV1 writes native value as NATIVE_COIN's `Transfer`. The
 * wrapped coin's `Deposit` mints to its sender and `Withdrawal` burns from it (WETH9 logs no
 * `Transfer` for them), written as transfers from and to the zero address.
 */
function transferOf(
  log: { address: Address; topics: readonly Hex[]; data: Hex },
  wrappedNative: Address | undefined,
): TracedTransfer[] {
  const topics = log.topics as [Hex, ...Hex[]]
  try {
    if (wrappedNative && isAddressEqual(log.address, wrappedNative)) {
      const wrapped = decodeEventLog({ abi: wrappedAbi, topics, data: log.data, strict: true })
      const token = log.address
      return wrapped.eventName === 'Deposit'
        ? [{ token, from: zeroAddress, to: wrapped.args.dst, value: wrapped.args.wad }]
        : [{ token, from: wrapped.args.src, to: zeroAddress, value: wrapped.args.wad }]
    }
  } catch {
    // Not a Deposit or Withdrawal: read as a Transfer below.
  }
  try {
    const event = decodeEventLog({ abi: erc20Abi, topics, data: log.data, strict: true })
    if (event.eventName !== 'Transfer') return []
    const { from, to, value } = event.args
    return [{ token: isNative(log.address) ? NATIVE_COIN : log.address, from, to, value }]
  } catch {
    // Not an ERC-20 Transfer (an ERC-721 one has its value indexed, an event of another shape).
    return []
  }
}

async function probeSequence(
  client: ChainClient,
  { from, calls, blockNumber, watches, fund }: SimulateSequenceParameters,
  gas: bigint,
): Promise<SequenceSimulation> {
  const probeWatches = watches.map((watch) => ({ ...watch, spender: watch.spender ?? zeroAddress }))
  const data = encodeFunctionData({
    abi: sequenceProbeAbi,
    functionName: 'run',
    args: [
      calls.map(({ to, value, data: callData }) => ({ to, value, data: callData })),
      probeWatches,
    ],
  })
  // The probe stands in for the wallet's code: each call it makes comes from the wallet.
  const answer = await ethCall(client, {
    to: from,
    data,
    blockNumber,
    gas: gas * BigInt(calls.length + 1),
    stateOverride: [
      {
        address: from,
        code: SEQUENCE_PROBE_RUNTIME,
        ...(fund !== undefined && { balance: fund }),
      },
    ],
  })
  const [gasUsed, before, after, failed, revertData] = decodeFunctionResult({
    abi: sequenceProbeAbi,
    functionName: 'run',
    data: answer.data ?? '0x',
  })
  const ran = failed === 0n ? calls.length : Number(failed)
  const simulated = calls.slice(0, ran).map((call, index) => ({
    status: index + 1 === Number(failed) ? ('failure' as const) : ('success' as const),
    // The probe measures the call's execution; a transaction also pays its intrinsic gas.
    gasUsed: (gasUsed[index] ?? 0n) + intrinsicGas(call.data),
    ...(index + 1 === Number(failed) && { revertReason: revertReason(revertData) }),
  }))
  const watched = watches.map((watch, index) => ({
    watch,
    before: before[index] ?? 0n,
    after: after[index] ?? before[index] ?? 0n,
  }))
  return { method: 'eth_call', calls: simulated, watched }
}

/** 21,000 and the calldata (EIP-2028): what a transaction pays before its code runs. */
function intrinsicGas(data: Hex): bigint {
  let gas = 21_000n
  for (let index = 2; index < data.length; index += 2) {
    gas += data.slice(index, index + 2) === '00' ? 4n : 16n
  }
  return gas
}

const MAX_REASON_CHARS = 400

/**
 * A revert's data in words: `Error(string)`'s message, a panic's code, or the raw data; control
 * characters replaced and cut to 400 characters (a contract writes what it likes).
 */
export function revertReason(data: Hex | undefined): string {
  return decodedReason(data)
    .replace(/[\u0000-\u001f\u007f]/g, '?')
    .slice(0, MAX_REASON_CHARS)
}

function decodedReason(data: Hex | undefined): string {
  if (!data || data === '0x') return 'reverted without a reason'
  try {
    const decoded = decodeErrorResult({ abi: [], data })
    if (decoded.errorName === 'Error') return String(decoded.args[0])
    if (decoded.errorName === 'Panic') return `panic ${String(decoded.args[0])}`
  } catch {
    // A custom error of a contract we hold no ABI of: its data, as the node gave it.
  }
  return `reverted with data ${data.slice(0, 138)}`
}
