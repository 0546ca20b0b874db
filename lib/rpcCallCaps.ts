// The RPC calls each route that reads the chain may make per request, at most (DECISIONS §10.4):
// what the route charges its client's RPC budget before its first call, and the cap its calls
// never pass (lib/chain/rpcMeter.ts refuses the call past it, at the transport, and the request
// fails with 422), so each figure is a bound by construction. Every attempt counts: a retry, a
// failover to another URL, a receipt poll. Each figure is the route's calls as counted in the
// suite's heaviest shapes (docs/security.md, "RPC budgets"), with room for one retry of each
// round trip; a request that would need more is refused rather than charged less than it costs.

/**
 * An L2's L1 data fee (lib/routing/gas/l1Fee.ts): the GasPriceOracle's getL1Fee in the
 * simulations' batch, and once more when a fee-safe plan is chosen over the best, each retried.
 */
export const L1_FEE_RPC_CALLS = 4

/**
 * A quote: the pool lens (its calls grow with the pairs among the ends, the base tokens and up to
 * 6 connectors), gas price and block, a cold token's balance slot, up to two rounds of V3 tick
 * pages, then up to three plans simulated (the best, and fee-safe ones while an end token was
 * never seen plain), and the decimals when no simulation could run the tokens' code; on an L2,
 * its L1 data fee (L1_FEE_RPC_CALLS).
 */
export const QUOTE_RPC_CAP = 40 + L1_FEE_RPC_CALLS

/**
 * A preview (DECISIONS §10.2, lib/preview/previewSequence.ts): one eth_simulateV1, or on a node
 * without it that call refused and one eth_call with state overrides, each retried once.
 */
export const PREVIEW_RPC_CALLS = 4

/**
 * A permit (DECISIONS §10.2, lib/swap/permitSupport.ts): the token's support probed (three reads
 * in one round trip, then a simulated permit; once per token, then kept in the table) and the
 * owner's `nonces`, each retried once.
 */
export const PERMIT_RPC_CALLS = 10

/**
 * A prepared swap: the quote's calls (an L2's L1 fee too) with the estimate, the wallet's nonce,
 * tip, balance and allowance, a permit where the allowance is short, and the preview (whose
 * simulation also gives an approval and swap their gas).
 */
export const PREPARE_SWAP_RPC_CAP = 48 + L1_FEE_RPC_CALLS + PREVIEW_RPC_CALLS + PERMIT_RPC_CALLS

/**
 * A prepared transfer: decimals, balance, block, nonce, tip and the estimate, each retried once,
 * and the preview.
 */
export const PREPARE_TRANSFER_RPC_CAP = 16 + PREVIEW_RPC_CALLS

/**
 * The router's allowance and the approvals a short one needs (GET /v1/swap/approval/{network}):
 * the allowance read; when short, the block, nonce, tip and native balance, each retried once,
 * and the approvals' preview. The native coin makes none.
 */
export const APPROVAL_RPC_CAP = 10 + PREVIEW_RPC_CALLS

/**
 * Waiting for an approval to be mined (lib/send/sendSigned.ts, waitForSuccess): a block-number poll
 * every 250 ms for up to 20 s, and the receipt read at each new block.
 */
export const RECEIPT_WAIT_RPC_CALLS = 90

/**
 * A `{key}` swap: what a prepared one reads (its preview before anything is sent; its permit, signed by the key), then up to two approvals (a non-zero allowance reset
 * first), each estimated, sent and waited for, and the swap estimated again and sent.
 */
export const SWAP_RPC_CAP = PREPARE_SWAP_RPC_CAP + 2 * (2 + RECEIPT_WAIT_RPC_CALLS) + 4

/** A `{key}` transfer: a prepared transfer's reads and preview, and the broadcast. */
export const TRANSFER_RPC_CAP = PREPARE_TRANSFER_RPC_CAP + 2

/**
 * A submit of up to 3 signed transactions: the pending nonce and the decimals of up to two moved
 * tokens outside the catalog, a swap's permit checked, then each broadcast, each approval waited
 * for before the next.
 */
export const SUBMIT_RPC_CAP = 6 + PERMIT_RPC_CALLS + 3 * 2 + 2 * RECEIPT_WAIT_RPC_CALLS

/** A trade looked up by id or hash: a pending trade's receipt, tried on up to three URLs (or one retried). */
export const TRADE_LOOKUP_RPC_CAP = 3

/**
 * Balances: one eth_getBalance per network the stage serves (a wallet attaches at most those),
 * tried on up to three URLs (or one retried).
 */
export function balancesRpcCap(servedNetworks: number): number {
  return 3 * servedNetworks
}
