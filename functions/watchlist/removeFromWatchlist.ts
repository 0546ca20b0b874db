import { unwatchProject } from '../../lib/db/watchlist'
import { walletGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { NotFound } from '../../lib/errors'
import type { Principal } from '../../lib/auth/principal'
import { type ProjectIdParams, projectIdParamsSchema } from '../../schemas/project'
import { type EmptyResult, emptyResultSchema } from '../../schemas/session'

export async function removeFromWatchlist(
  principal: Principal,
  { projectId }: ProjectIdParams,
): Promise<EmptyResult> {
  // Removing a project that is not watched is harmless, like adding one twice.
  const outcome = await unwatchProject(principal.subject, projectId)
  if (outcome === 'unknownProject') throw new NotFound('no project with this id')
  return {}
}

export const handler = defineHandler({
  auth: walletGuard,
  params: projectIdParamsSchema,
  result: emptyResultSchema,
  run: ({ principal, params }) => removeFromWatchlist(principal, params),
})
