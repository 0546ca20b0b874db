import { watchProject } from '../../lib/db/watchlist'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { NotFound } from '../../lib/errors'
import type { Principal } from '../../lib/auth/principal'
import { type ProjectIdParams, projectIdParamsSchema } from '../../schemas/project'
import { type EmptyResult, emptyResultSchema } from '../../schemas/session'

export async function addToWatchlist(
  principal: Principal,
  { projectId }: ProjectIdParams,
): Promise<EmptyResult> {
  // Adding a project already watched is harmless: the count moves only with the watch item.
  const outcome = await watchProject(principal.subject, projectId)
  if (outcome === 'unknownProject') throw new NotFound('no project with this id')
  return {}
}

export const handler = defineHandler({
  auth: walletGuard,
  params: projectIdParamsSchema,
  result: emptyResultSchema,
  run: ({ principal, params }) => addToWatchlist(principal, params),
})
