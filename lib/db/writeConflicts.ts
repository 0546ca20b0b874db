// The two ways DynamoDB says a guarded write did not happen; repositories turn them into results.

/** A conditional Put/Update/Delete whose condition was false. */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException'
}

/** A transaction refused as a whole (a condition was false, or it conflicted with another). */
export function isTransactionCanceled(error: unknown): boolean {
  return error instanceof Error && error.name === 'TransactionCanceledException'
}
