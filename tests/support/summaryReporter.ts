import type { SerializedError } from 'vitest'
import type { Reporter, TestModule } from 'vitest/node'

// Ends the run with the plain `N passed, N failed` line that CI records. A file that fails before
// its tests run (an import or a hook throws) and an error outside any test each count as one
// failure: otherwise the line would read `0 failed` on a run that failed.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    let passed = 0
    let failed = unhandledErrors.length
    let skipped = 0
    for (const testModule of testModules) {
      if (testModule.errors().length > 0) failed += 1
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state
        if (state === 'passed') passed += 1
        else if (state === 'failed') failed += 1
        else skipped += 1
      }
    }
    console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
  }
}
