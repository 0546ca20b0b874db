// One function per network runs this file (serverless.yml's `prepareSwapTokens` block, made a function per
// network the stage serves); NETWORK, set on each, names its network.
import { loadFunctionNetwork } from '../../lib/config'
import { prepareSwapTokensRoute } from '../../lib/networkRoutes/prepareSwapTokensRoute'

export const handler = prepareSwapTokensRoute(loadFunctionNetwork())
