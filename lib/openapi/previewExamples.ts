import { type Address, getAddress } from 'viem'
import { NATIVE_COIN } from '../constants'
import type { Preview } from '../preview/previewSequence'

// The previews of the network examples (DECISIONS §10.2): what the example's transactions do,
// derived from the same figures as the example's route, as eth_simulateV1 would answer them.

interface PreviewHop {
  pool: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
}

type Changes = Map<string, bigint>

function add(changes: Changes, address: Address, token: Address, amount: bigint) {
  const key = `${getAddress(address)}:${getAddress(token)}`
  changes.set(key, (changes.get(key) ?? 0n) + amount)
}

function listed(changes: Changes): Preview['balanceChanges'] {
  return [...changes]
    .filter(([, change]) => change !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, change]) => {
      const [address, token] = key.split(':') as [Address, Address]
      return { address, token, change: change.toString() }
    })
}

export interface SwapPreviewExample {
  blockNumber: number
  owner: Address
  router: Address
  /** The wrapped coin, which holds what a native-in swap wraps. */
  wrapped: Address
  nativeIn: boolean
  amountIn: bigint
  hops: PreviewHop[]
  /** The approval before the swap (a short allowance), with the gas each used. */
  approval: boolean
  gas: { approval: bigint; swap: bigint }
}

/** A swap's preview: the wallet pays the pools (the router wraps a native input), they pay it. */
export function swapPreviewExample(example: SwapPreviewExample): Preview {
  const { owner, router, wrapped, nativeIn, amountIn, hops, approval, gas } = example
  const changes: Changes = new Map()
  const tokenIn = hops[0]?.tokenIn ?? wrapped
  add(changes, owner, nativeIn ? NATIVE_COIN : tokenIn, -amountIn)
  // The native coin goes to the wrapped coin's contract, which mints it to the pools' side.
  if (nativeIn) add(changes, wrapped, NATIVE_COIN, amountIn)
  for (const hop of hops) {
    add(changes, hop.pool, hop.tokenIn, hop.amountIn)
    add(changes, hop.pool, hop.tokenOut, -hop.amountOut)
    add(changes, owner, hop.tokenOut, hop.amountOut)
  }
  const transactions = [
    ...(approval
      ? [{ kind: 'approval' as const, status: 'success' as const, gasUsed: gas.approval }]
      : []),
    { kind: 'swap' as const, status: 'success' as const, gasUsed: gas.swap },
  ]
  return {
    blockNumber: example.blockNumber.toString(),
    method: 'eth_simulateV1',
    transactions: transactions.map((transaction) => ({
      ...transaction,
      gasUsed: transaction.gasUsed.toString(),
    })),
    gasUsed: transactions.reduce((sum, transaction) => sum + transaction.gasUsed, 0n).toString(),
    balanceChanges: listed(changes),
    // The exact amount approved is spent by the swap: no allowance is left standing.
    allowanceChanges: [],
    issues: approval
      ? [
          {
            type: 'insufficientAllowance',
            token: getAddress(tokenIn),
            spender: getAddress(router),
            required: amountIn.toString(),
            available: '0',
          },
        ]
      : [],
  }
}

/** A token transfer's preview: the wallet's balance to the recipient's. */
export function transferPreviewExample(example: {
  blockNumber: number
  owner: Address
  to: Address
  token: Address
  amount: bigint
  gasUsed: bigint
}): Preview {
  const changes: Changes = new Map()
  add(changes, example.owner, example.token, -example.amount)
  add(changes, example.to, example.token, example.amount)
  return {
    blockNumber: example.blockNumber.toString(),
    method: 'eth_simulateV1',
    transactions: [{ kind: 'transfer', status: 'success', gasUsed: example.gasUsed.toString() }],
    gasUsed: example.gasUsed.toString(),
    balanceChanges: listed(changes),
    allowanceChanges: [],
    issues: [],
  }
}
