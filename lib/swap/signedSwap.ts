import { signedOnce } from '../send/signedRequest'
import { executeSwap, type ExecuteSwapParameters } from './executeSwap'

export type SwapBody = Omit<ExecuteSwapParameters, 'network' | 'account' | 'now'>

/** A swap signed by `key`, run once per Idempotency-Key. */
export const signedSwap = signedOnce((network, account, body: SwapBody) =>
  executeSwap({ network, account, ...body }),
)
