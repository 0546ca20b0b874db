import { getProjectMarkets } from '../../lib/db/marketStats'
import { accountGuard } from '../../lib/http/authGuard'
import { defineHandler } from '../../lib/http/defineHandler'
import { NotFound } from '../../lib/errors'
import type { SessionGate } from '../../lib/http/sessionGate'
import { describeProject } from '../../lib/markets/describeProject'
import {
  type ProjectIdParams,
  type ProjectResult,
  projectIdParamsSchema,
  projectResultSchema,
} from '../../schemas/project'

/**
 * One BatchGetItem: the project's item, on which the market-sync and sampler jobs keep the
 * metrics, and the caller's session, admitted before anything of the project is used.
 */
export async function getProjectDetails(
  { projectId }: ProjectIdParams,
  session: SessionGate,
): Promise<ProjectResult> {
  const {
    projectMarkets: [projectMarket],
    beside: sessionItem,
  } = await getProjectMarkets([projectId], session.key)
  await session.admit(sessionItem)
  if (!projectMarket) throw new NotFound('no project with this id')
  return { project: describeProject(projectMarket) }
}

export const handler = defineHandler({
  auth: accountGuard,
  sessionRead: 'route',
  params: projectIdParamsSchema,
  result: projectResultSchema,
  run: ({ params, session }) => getProjectDetails(params, session),
})
