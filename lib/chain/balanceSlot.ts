import {
  type Address,
  BaseError,
  ContractFunctionExecutionError,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  keccak256,
  toHex,
} from 'viem'
import type { NetworkName } from '../networkNames'
import { Unprocessable } from '../errors'
import { readUntrusted } from './callBudget'
import { onChain } from './chainError'
import { publicClient } from './clients'
import { ROUTER_PROBE_ADDRESS } from './routerProbe'

// Where a token keeps the router probe's balance, so a simulation can give the probe exactly the
// input it swaps (lib/routing/simulate/simulateSplit.ts).

/** Storage layouts whose balance slot the scan tries: Solidity and Vyper mappings at slots 0..N. */
const BALANCE_SLOTS_SCANNED = 12
/** OpenZeppelin's upgradeable ERC20 (ERC-7201): `_balances` is the first field at this base. */
const OZ_ERC20_STORAGE =
  '0x52c63247e1f47db19d5ce0460030c497f067ca4cebf71ba98eeadabe20bace00' as const

/** The storage slots that would hold `owner`'s balance in common token layouts, in scan order. */
export function balanceSlotCandidates(owner: Address): Hex[] {
  const slots: Hex[] = []
  for (let index = 0n; index < BigInt(BALANCE_SLOTS_SCANNED); index += 1n) {
    slots.push(
      keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [owner, index])),
    )
    slots.push(
      keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], [index, owner])),
    )
  }
  slots.push(
    keccak256(
      encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [owner, OZ_ERC20_STORAGE]),
    ),
  )
  return slots
}

/** The balance slot of `token` this container already found (undefined: not looked for yet). */
export function knownBalanceSlot(network: NetworkName, token: Address): Hex | null | undefined {
  return balanceSlots.get(`${network}:${token.toLowerCase()}`)
}

/** The probe's candidate slots: 25 keccaks, the same for every token, so worked out once. */
let probeSlots: Hex[] | undefined

/** Balance slots found per `network:token` in this container; null: no slot found. */
const balanceSlots = new Map<string, Hex | null>()
/** Tokens remembered at most; the map starts over beyond (a container sees few tokens). */
const BALANCE_SLOTS_KEPT = 1000

/**
 * The slot of `token` that holds the probe's balance, found in one eth_call: every candidate
 * slot is overridden with its own marker (1, 2, …) and balanceOf(probe) names the one it read.
 * Null when it read none of them (a token that computes balances, as reflection tokens do).
 * Remembered, so a warm container finds a token's slot without a round trip.
 */
export async function findBalanceSlot(network: NetworkName, token: Address): Promise<Hex | null> {
  const key = `${network}:${token.toLowerCase()}`
  const known = balanceSlots.get(key)
  if (known !== undefined) return known
  probeSlots ??= balanceSlotCandidates(ROUTER_PROBE_ADDRESS)
  const candidates = probeSlots
  const marker = await unlessReverted(
    onChain(network, () =>
      readUntrusted(publicClient(network), {
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [ROUTER_PROBE_ADDRESS],
        stateOverride: [
          {
            address: token,
            stateDiff: candidates.map((slot, index) => ({
              slot,
              value: toHex(BigInt(index + 1), { size: 32 }),
            })),
          },
        ],
      }),
    ),
  )
  const found =
    marker !== undefined && marker >= 1n && marker <= BigInt(candidates.length)
      ? (candidates[Number(marker) - 1] ?? null)
      : null
  if (balanceSlots.size >= BALANCE_SLOTS_KEPT) balanceSlots.clear()
  balanceSlots.set(key, found)
  return found
}

/** A token that reverts or answers nothing is not one whose slot can be found (undefined). */
function unlessReverted<Result>(call: Promise<Result>): Promise<Result | undefined> {
  return call.catch((error: unknown) => {
    if (error instanceof Unprocessable || error instanceof ContractFunctionExecutionError) {
      return undefined
    }
    if (error instanceof BaseError && error.name === 'ContractFunctionZeroDataError') {
      return undefined
    }
    throw error
  })
}
