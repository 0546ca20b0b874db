import { signedOnce } from '../send/signedRequest'
import { transferTokens, type TransferTokensParameters } from './transferTokens'

export type TransferBody = Omit<TransferTokensParameters, 'network' | 'account'>

/** A transfer signed by `key`, run once per Idempotency-Key. */
export const signedTransfer = signedOnce((network, account, body: TransferBody) =>
  transferTokens({ network, account, ...body }),
)
