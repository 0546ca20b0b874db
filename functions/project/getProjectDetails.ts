import { getProjectMarket } from '../../lib/db/marketStats'
import { accountGuard } from '../../lib/auth/guard'
import { defineHandler } from '../../lib/http/defineHandler'
import { NotFound } from '../../lib/errors'
import { describeProject } from '../../lib/markets/describeProject'
import {
  type ProjectIdParams,
  type ProjectResult,
  projectIdParamsSchema,
  projectResultSchema,
} from '../../schemas/project'

/**
 * One GetItem: the project's item, on which the market-sync and sampler jobs keep the metrics.
 */
export async function getProjectDetails({ projectId }: ProjectIdParams): Promise<ProjectResult> {
  const projectMarket = await getProjectMarket(projectId)
  if (!projectMarket) throw new NotFound('no project with this id')
  return { project: describeProject(projectMarket) }
}

export const handler = defineHandler({
  auth: accountGuard,
  // A read: the session is read beside the project's item.
  sessionRead: 'beside',
  params: projectIdParamsSchema,
  result: projectResultSchema,
  run: ({ params }) => getProjectDetails(params),
})
