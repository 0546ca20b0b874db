import { configDefaults, defineConfig } from 'vitest/config'

// Two projects. `unit`: pure modules and fakes, no engine and no global setup; seconds, alone with
// `npm run test:unit`. `integration`: everything else, against the real engines that the global
// setup starts once per run (DynamoDB Local, the devnets, serverless offline).
export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summaryReporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          root: '.',
          include: ['tests/unit/**/*.test.ts'],
          pool: 'threads',
          // Seconds on a quiet machine; the SDK property tests take longer beside CPU hogs.
          testTimeout: 120_000,
          // Projects with different worker counts need their own group: unit runs first.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          root: '.',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/unit/**'],
          globalSetup: ['tests/support/globalSetup.ts'],
          pool: 'forks',
          // The engines are shared: two workers keep the 2-core machine responsive.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
