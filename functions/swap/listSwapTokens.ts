import { defineHandler } from '../../lib/http/defineHandler'
import { listSwapTokens } from '../../lib/swap/listSwapTokens'
import {
  type ListTokensQuery,
  type ListTokensResult,
  listTokensQuerySchema,
  listTokensResultSchema,
} from '../../schemas/swap'

export async function listTokens(query: ListTokensQuery): Promise<ListTokensResult> {
  return { tokens: await listSwapTokens(query) }
}

export const handler = defineHandler({
  auth: 'none',
  query: listTokensQuerySchema,
  result: listTokensResultSchema,
  run: ({ query }) => listTokens(query),
})
