import { configDefaults, defineConfig } from 'vitest/config'

// The reference replay (tests/reference/quoteOptimality.test.ts) with every searchSplit call the
// service makes written to SEARCH_SPLIT_DUMP (searchSplitDumpSetup.ts), for searchSplitCpu.ts:
//   SEARCH_SPLIT_DUMP=$PWD/.test-output/searchSplit.jsonl REFERENCE_REPLAY_DIR=.test-output/reference \
//   REFERENCE_SEED=<the run's seed, as it printed> TEST_OFFLINE=0 \
//   npx vitest run --config tests/bench/searchSplitDump.config.mts
export default defineConfig({
  test: {
    name: 'searchSplit dump',
    root: '.',
    include: ['tests/reference/quoteOptimality.test.ts'],
    exclude: [...configDefaults.exclude],
    globalSetup: ['tests/support/globalSetup.ts'],
    setupFiles: ['tests/bench/searchSplitDumpSetup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
