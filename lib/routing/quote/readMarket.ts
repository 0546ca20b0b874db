import { getBlockNumber, getGasPrice } from 'viem/actions'
import type { Address, Hex } from 'viem'
import { findBalanceSlot, knownBalanceSlot } from '../../chain/balanceSlot'
import { onChain } from '../../chain/chainError'
import { publicClient } from '../../chain/clients'
import { type ChainConfig, loadChainConfig, MAX_CONNECTOR_TOKENS } from '../../config'
import { NoRouterConfigured } from '../../errors'
import type { NetworkName } from '../../networkNames'
import { recipientIsFresh } from '../gas/freshRecipient'
import { type Pool, sameToken } from '../pools/pool'
import { readPools } from '../providers/readPools'
import { pairsToRead } from '../providers/tokenPairs'

export interface ReadMarketParameters {
  network: NetworkName
  tokenIn: Address
  tokenOut: Address
  nativeIn: boolean
  nativeOut: boolean
  /** Receives the output; the zero address measures at the probe (an anonymous quote). */
  recipient: Address
  /**
   * Tokens that may connect a route besides the base tokens: the network's configured
   * `connectorTokens` unless given (the sampler gives the catalog).
   */
  connectorCandidates?: readonly Address[]
  /**
   * Candidates whose pools are read, at most (default MAX_CONNECTOR_TOKENS, the quote's
   * bound). The price sampler, off the request path, reads them all: more lens calls, still one
   * round trip.
   */
  maxConnectorCandidates?: number
  /** Rank by amountOut alone (gas left out): a price rather than a trade. */
  ignoreGas?: boolean
  /**
   * Simulate through the network's router (the default; a quote needs it: NoRouterConfigured
   * without one). False: the pools' own math alone, e.g. a price on a network without a router.
   */
  simulate?: boolean
}

/** What a quote's first round trip read, and what it reads them for. */
export interface Market {
  config: ChainConfig
  simulate: boolean
  /** The network's router (undefined only where nothing is to be simulated). */
  router: Address | undefined
  /** Tokens a route may pass through: the base tokens, then the connector candidates. */
  through: Address[]
  pools: Pool[]
  gasPriceWei: bigint
  blockNumber: bigint
  /** The input token's balance slot: null where none was found, so none can be set. */
  balanceSlot: Hex | null
  /** Whether the recipient holds none of the output yet (its first balance costs more gas). */
  freshRecipient: boolean
}

/**
 * The quote's first round trip: every pool among the ends, base tokens and connector candidates
 * read by PoolLens, with the gas price and block number, in one batch; the input token's balance
 * slot (a round trip more the first time a container meets the token) and the recipient's
 * balance of the output beside them.
 */
export async function readMarket(parameters: ReadMarketParameters): Promise<Market> {
  const { network, tokenIn, tokenOut, nativeIn, nativeOut, recipient } = parameters
  const config = loadChainConfig(network)
  const simulate = parameters.simulate ?? true
  const router = config.swapRouter
  if (simulate && !router) throw new NoRouterConfigured(network)
  const candidates = (parameters.connectorCandidates ?? config.connectorTokens)
    .filter((token) => !config.baseTokens.some((base) => sameToken(base, token)))
    .slice(0, parameters.maxConnectorCandidates ?? MAX_CONNECTOR_TOKENS)
  const through = [...config.baseTokens, ...candidates]
  const client = publicClient(network)
  const slotKnown = !simulate || nativeIn ? null : knownBalanceSlot(network, tokenIn)
  const [pools, gasPriceWei, blockNumber, balanceSlot, freshRecipient] = await Promise.all([
    readPools({ network, pairs: pairsToRead(tokenIn, tokenOut, through) }),
    onChain(network, () => getGasPrice(client)),
    onChain(network, () => getBlockNumber(client, { cacheTime: 0 })),
    slotKnown !== undefined ? slotKnown : findBalanceSlot(network, tokenIn),
    // Writing a balance from zero costs 17,100 gas more (a tenth of a swap): a known recipient's
    // is read beside the pools (DECISIONS §10.2); an anonymous quote assumes one that holds it.
    recipientIsFresh({
      network,
      recipient,
      token: tokenOut,
      native: nativeOut,
      ignoreGas: parameters.ignoreGas,
    }),
  ])
  return {
    config,
    simulate,
    router,
    through,
    pools,
    gasPriceWei,
    blockNumber,
    balanceSlot,
    freshRecipient,
  }
}
