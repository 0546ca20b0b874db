import '../../support/env'
import { type Address, getAddress } from 'viem'
import { describe, expect, inject, it } from 'vitest'
import { db } from '../../../lib/db/client'
import { loadChainConfig } from '../../../lib/config'
import { LOOKUPS_PER_CALL } from '../../../lib/routing/providers/readPools'
import { choosePricingPath, PATH_CONNECTORS } from '../../../lib/markets/pricingPath'
import { usdDecimals } from '../../../lib/markets/usdDecimals'
import { countRequests, formatCounts } from '../../support/requestCounters'
import { TESTED_NETWORKS } from '../../support/networkCases'

// What a review of a pricing path costs the sampler (DECISIONS §9.2: at least daily): one lens
// round trip over the pairs of every candidate route, with the catalog's 8 connectors.

describe.each(TESTED_NETWORKS)('reviewing a pricing path on %s', (network) => {
  it('costs one round trip of ceil(pairs × pools a pair / 24) eth_calls, with 8 connectors', async () => {
    const deployed = inject('deployments')[network]
    const { usdStablecoin: usd, wrappedNative: native, v3 } = loadChainConfig(network)
    const [token, ...rest] = [...deployed.tokens, ...deployed.v3OnlyTokens, ...deployed.zoo].map(
      (listed) => getAddress(listed.address),
    )
    if (!token) throw new Error('no demo token')
    const connectors = rest.filter((address) => address !== usd).slice(0, PATH_CONNECTORS)
    expect(connectors).toHaveLength(PATH_CONNECTORS)
    // The pairs of the routes: direct, through the native coin, through each connector (and on
    // through the native coin).
    const pairs = new Set<string>()
    const pair = (a: Address, b: Address) =>
      pairs.add(
        [a, b]
          .map((x) => x.toLowerCase())
          .sort()
          .join('/'),
      )
    pair(token, usd)
    pair(token, native)
    pair(native, usd)
    for (const middle of connectors) {
      pair(token, middle)
      pair(middle, usd)
      pair(middle, native)
    }
    const lookups = pairs.size * (1 + (v3?.feeTiers.length ?? 0))
    await usdDecimals(network) // read once per container, not per review
    const counter = countRequests(db())
    try {
      const path = await choosePricingPath({ network, token, decimals: 18, connectors })
      const { rpc } = counter.take()
      console.log(
        `${network}: a review reads ${pairs.size} pairs (${lookups} pool lookups): ` +
          `${rpc.calls} RPC calls in ${rpc.roundTrips} round trip (${formatCounts(rpc.byMethod)}); ` +
          `path ${path?.hops.length} hops`,
      )
      expect(path).toBeDefined()
      expect(rpc).toEqual({
        calls: Math.ceil(lookups / LOOKUPS_PER_CALL),
        roundTrips: 1,
        byMethod: { eth_call: Math.ceil(lookups / LOOKUPS_PER_CALL) },
      })
    } finally {
      counter.stop()
    }
  })
})
