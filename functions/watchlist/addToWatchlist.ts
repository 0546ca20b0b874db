import { watchProject } from '../../lib/db/watchlist'
import { walletGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import { NotFound } from '../../lib/errors'
import type { Principal, SessionGate } from '../../lib/http/types'
import { type ProjectIdParams, projectIdParamsSchema } from '../../schemas/project'
import { type EmptyResult, emptyResultSchema } from '../../schemas/session'

export async function addToWatchlist(
  principal: Principal,
  session: SessionGate,
  { projectId }: ProjectIdParams,
): Promise<EmptyResult> {
  // Adding a project already watched is harmless: the count moves only with the watch item.
  const outcome = await watchProject(principal.subject, projectId, session)
  if (outcome === 'unknownProject') throw new NotFound('no project with this id')
  return {}
}

export const handler = defineHandler({
  auth: walletGuard,
  // The transaction checks the session too: one DynamoDB call in all.
  sessionRead: 'route',
  params: projectIdParamsSchema,
  result: emptyResultSchema,
  run: ({ principal, session, params }) => addToWatchlist(principal, session, params),
})
