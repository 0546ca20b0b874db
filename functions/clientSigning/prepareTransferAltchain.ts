import { prepareTransfer } from '../../lib/clientSigning/prepareTransfer'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { preparedTransferResultSchema } from '../../schemas/clientSigning'
import { type TransferBody, transferBodySchema } from '../../schemas/swap'

// The transaction POST /api/v1/transfer/tokens/altchain/{key} would send, unsigned.
export async function prepareTransferAltchain(wallet: `0x${string}`, body: TransferBody) {
  return prepareTransfer({ network: 'altchain', owner: wallet, ...body })
}

export const handler = defineHandler({
  auth: walletGuard,
  // Prepare writes and sends nothing: the session is read while the route reads.
  sessionRead: 'beside',
  body: transferBodySchema,
  result: preparedTransferResultSchema,
  run: ({ body, principal }) => prepareTransferAltchain(principal.subject as `0x${string}`, body),
})
