import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: '.',
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/globalSetup.ts'],
    reporters: ['default', './tests/support/summaryReporter.ts'],
    pool: 'forks',
    // The engines are shared: two workers keep the 2-core machine responsive.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
