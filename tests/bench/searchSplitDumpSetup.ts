import { createHash } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { vi } from 'vitest'
import type * as SearchSplitModule from '../../lib/routing/search/searchSplit'

// searchSplit wrapped for searchSplitDump.config.mts: each call's parameters and answer appended
// to SEARCH_SPLIT_DUMP as a JSON line (bigints as "123n"), each pool once to `<dump>.pools`
// (named by a hash of its state); a hop's permission (allowHop) as the directed pools it allows.

const replacer = (_: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)

vi.mock('../../lib/routing/search/searchSplit', async (importOriginal) => {
  const original = await importOriginal<typeof SearchSplitModule>()
  const file = process.env.SEARCH_SPLIT_DUMP
  if (!file) throw new Error('set SEARCH_SPLIT_DUMP to the file to write')
  const dumped = new Set<string>()
  const searchSplit: typeof original.searchSplit = (parameters) => {
    const result = original.searchSplit(parameters)
    const poolIds = parameters.pools.map((pool) => {
      const text = JSON.stringify(pool, replacer)
      const id = createHash('sha1').update(text).digest('hex').slice(0, 16)
      if (!dumped.has(id)) {
        dumped.add(id)
        appendFileSync(`${file}.pools`, `${JSON.stringify({ id, pool: JSON.parse(text) })}\n`)
      }
      return id
    })
    const { allowHop } = parameters
    const allowed = allowHop
      ? parameters.pools.flatMap((pool) =>
          (
            [
              [pool.token0, pool.token1],
              [pool.token1, pool.token0],
            ] as const
          )
            .filter(([tokenIn, tokenOut]) => allowHop({ pool, tokenIn, tokenOut }))
            .map(([tokenIn]) => `${pool.address}:${tokenIn}`),
        )
      : undefined
    const call = {
      poolIds,
      tokenIn: parameters.tokenIn,
      tokenOut: parameters.tokenOut,
      through: parameters.through,
      amountIn: parameters.amountIn,
      units: parameters.units,
      gasPrice: parameters.gasPrice,
      maxRoutes: parameters.maxRoutes,
      allowed,
      net: result?.net,
      amountOut: result?.amountOut,
      routes: result?.routes.map((route) => ({
        amountIn: route.amountIn,
        pools: route.hops.map((hop) => hop.pool.address),
      })),
    }
    appendFileSync(file, `${JSON.stringify(call, replacer)}\n`)
    return result
  }
  return { ...original, searchSplit }
})
