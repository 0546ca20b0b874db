import { walletGuard } from '../../lib/auth/guard'
import { prepareApproval } from '../../lib/clientSigning/prepareApproval'
import { defineHandler } from '../../lib/http/defineHandler'
import { rpcBudget } from '../../lib/http/rpcBudget'
import { APPROVAL_RPC_CAP } from '../../lib/rpcCallCaps'
import {
  type ApprovalParams,
  type ApprovalQuery,
  type ApprovalResult,
  approvalParamsSchema,
  approvalQuerySchema,
  approvalResultSchema,
} from '../../schemas/approval'

// One function for every served network: the network is a path parameter, and the route reads
// each network's RPC URL (servedRpcUrls in serverless.yml).
export async function getApproval(
  { network }: ApprovalParams,
  { token, amount, owner }: ApprovalQuery,
): Promise<ApprovalResult> {
  const answer = await prepareApproval({ network, token, amount: BigInt(amount), owner })
  return {
    ...answer,
    allowance: answer.allowance.toString(),
    amount: answer.amount.toString(),
  }
}

export const handler = defineHandler({
  auth: walletGuard,
  // Charged only if it calls: the native coin answers without one.
  rpcBudget: rpcBudget(APPROVAL_RPC_CAP, { charge: 'atFirstCall' }),
  // A read: the session is checked while the route reads (one sequential round trip).
  sessionRead: 'beside',
  params: approvalParamsSchema,
  query: approvalQuerySchema,
  result: approvalResultSchema,
  run: ({ params, query }) => getApproval(params, query),
})
