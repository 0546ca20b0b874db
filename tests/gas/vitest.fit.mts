import { defineConfig } from 'vitest/config'

// `npm run gas:fit`: the fit of the gas units (tests/gas/fitGasUnits.fit.ts) on the suite's
// engines (its global setup), alone: it writes lib/networks.ts, so it is no test of `npm test`.
export default defineConfig({
  test: {
    root: '.',
    include: ['tests/gas/fitGasUnits.fit.ts'],
    globalSetup: ['tests/support/globalSetup.ts'],
    pool: 'forks',
    testTimeout: 3_600_000,
    hookTimeout: 300_000,
  },
})
