// The switch of tests/reference/quoteOptimality.test.ts. Until issue 33's routing engine lands,
// today's quotes miss the bar (DECISIONS §9.3) and the per-network comparisons are expected to
// fail (`it.fails`): they run, assert and print their table all the same, and a run in which
// every quote meets the bar fails, asking for this flip. The brute force's own checks are strict
// either way. REFERENCE_STRICT=1 holds the service to the bar without the edit.
const ENGINE_LANDED = false

export const REFERENCE_STRICT = ENGINE_LANDED || process.env.REFERENCE_STRICT === '1'
