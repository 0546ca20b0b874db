import { type Address, isAddressEqual, parseAbi, serializeTransaction, zeroAddress } from 'viem'
import { readContract } from 'viem/actions'
import { onChain } from '../../chain/chainError'
import { publicClient } from '../../chain/clients'
import { ROUTER_PROBE_ADDRESS } from '../../chain/routerProbe'
import { legsOf, type RoutedSplit, type SplitLeg, swapRouterCall } from '../../chain/swapRouterCall'
import { DEFAULT_DEADLINE_SECONDS } from '../../constants'
import type { NetworkName } from '../../networkNames'

// An L2's L1 data fee (DECISIONS §10.2: gas the chain charges): on an OP Stack chain every
// transaction pays, beside its L2 gas, the L1 fee of its bytes, which the GasPriceOracle
// predeploy's `getL1Fee(bytes)` answers for an unsigned serialized transaction (it counts the
// signature's 68 bytes itself). The quote asks it for the transaction it quotes, in the batch of
// its simulation (one eth_call more, no round trip more); the answer adds it to `gasCostToken1`.
// The oracle, not our own arithmetic: a Fjord chain prices a compressed size, which only its
// oracle knows how to estimate.

export const gasPriceOracleAbi = parseAbi([
  'function getL1Fee(bytes _data) view returns (uint256)',
  'function getL1FeeUpperBound(uint256 _unsignedTxSize) view returns (uint256)',
])

/**
 * What the quote cannot know of the transaction it prices, as it stands in for them: the
 * sender's nonce (a wallet's with a few hundred transactions: 2 bytes), the fee caps (twice the
 * gas price, and the gas price as the tip: the sizes lib/send/sendContext.ts's give), the limit
 * the send pipeline sets (the estimate × 1.5), the deadline from now, the minimum the size of
 * the amount out. Each byte the sent transaction has otherwise moves its fee by 12 or 16 L1 gas
 * of about 10,000 (tests/gas/l1Fee.test.ts: within 1.5 %).
 */
const TEMPLATE_NONCE = 300

export interface L1FeeRequest {
  network: NetworkName
  oracle: Address
  chainId: number
  router: Address
  legs: readonly SplitLeg[]
  /** The simulated or searched amount out: the minimum has the same bytes, give or take one. */
  amountOut: bigint
  /** The zero address: an anonymous quote (a non-zero stand-in then, as any wallet's is). */
  recipient: Address
  nativeIn: boolean
  nativeOut: boolean
  legsPayRecipient: boolean
  /** The route's L2 gas by the model. */
  gas: bigint
  gasPriceWei: bigint
}

/** The unsigned EIP-1559 transaction the quote prices: its router call and stand-in fields. */
export function quotedTransaction(request: L1FeeRequest): `0x${string}` {
  const recipient = isAddressEqual(request.recipient, zeroAddress)
    ? ROUTER_PROBE_ADDRESS
    : request.recipient
  const call = swapRouterCall({
    legs: request.legs,
    amountOutMin: request.amountOut,
    recipient,
    deadline: BigInt(Math.floor(Date.now() / 1000) + DEFAULT_DEADLINE_SECONDS),
    nativeIn: request.nativeIn,
    nativeOut: request.nativeOut,
    legsPayRecipient: request.legsPayRecipient,
  })
  return serializeTransaction({
    type: 'eip1559',
    chainId: request.chainId,
    nonce: TEMPLATE_NONCE,
    gas: (request.gas * 3n) / 2n,
    maxFeePerGas: request.gasPriceWei * 2n,
    maxPriorityFeePerGas: request.gasPriceWei,
    to: request.router,
    value: call.value,
    data: call.data,
  })
}

/** The oracle's L1 fee, in wei, of the transaction the quote prices. */
export function quoteL1Fee(request: L1FeeRequest): Promise<bigint> {
  const { network, oracle } = request
  const client = publicClient(network)
  return onChain(network, () =>
    readContract(client, {
      address: oracle,
      abi: gasPriceOracleAbi,
      functionName: 'getL1Fee',
      args: [quotedTransaction(request)],
    }),
  )
}

/** A plan as the L1 fee prices it: its split, whether its legs pay the recipient, its gas. */
export interface L1FeePlan {
  split: RoutedSplit & { amountOut: bigint; gas: bigint }
  legsPayRecipient: boolean
}

export interface L1FeeQuoterParameters {
  network: NetworkName
  /** The network's GasPriceOracle (config `l1FeeOracle`); none: every plan's L1 fee is undefined. */
  oracle: Address | undefined
  chainId: number
  router: Address | undefined
  recipient: Address
  nativeIn: boolean
  nativeOut: boolean
  gasPriceWei: bigint
  /** A price rather than a trade: no gas, so no L1 fee either (and no call). */
  ignoreGas?: boolean | undefined
}

/**
 * The L1 fee of a plan's transaction: undefined on a network without one, without a router, or
 * for a price (no gas).
 */
export function l1FeeQuoter(parameters: L1FeeQuoterParameters) {
  const { oracle, router, ignoreGas } = parameters
  return (plan: L1FeePlan): Promise<bigint | undefined> =>
    oracle && router && !ignoreGas
      ? quoteL1Fee({
          ...parameters,
          oracle,
          router,
          legs: legsOf(plan.split),
          amountOut: plan.split.amountOut,
          legsPayRecipient: plan.legsPayRecipient,
          gas: plan.split.gas,
        })
      : Promise.resolve(undefined)
}
