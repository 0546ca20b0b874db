import type { Address } from 'viem'
import type { ChainConfig } from '../config'
import { NATIVE_COIN } from '../constants'
import { readPathPrices } from '../db/pathPrices'
import { projectId } from '../db/project'
import type { NetworkName } from '../networkNames'

const ONE_USD_E18 = 10n ** 18n

/**
 * The path prices the dust floors weigh by (DECISIONS §10.4), by lower-cased token: the USD
 * stablecoin at 1 USD, the native coin at its wrapped token's, each catalog token at its path's
 * last closed bucket at the chain's time `at` (lib/db/pathPrices.ts); none for a token without.
 */
export async function dustPrices(
  network: NetworkName,
  { usdStablecoin, wrappedNative }: Pick<ChainConfig, 'usdStablecoin' | 'wrappedNative'>,
  { tokens, at }: { tokens: readonly Address[]; at: Date },
): Promise<Map<string, bigint>> {
  const ids = new Map(tokens.map((token) => [token.toLowerCase(), projectId(network, token)]))
  const byProject = await readPathPrices([...ids.values()], at)
  const prices = new Map<string, bigint>()
  for (const [token, id] of ids) {
    const price = byProject.get(id)
    if (price !== undefined) prices.set(token, price)
  }
  prices.set(usdStablecoin.toLowerCase(), ONE_USD_E18)
  const native = prices.get(wrappedNative.toLowerCase())
  if (native !== undefined) prices.set(NATIVE_COIN.toLowerCase(), native)
  return prices
}
