// One function per network runs this file (serverless.yml's `swapTokens` block, made a function per
// network the stage serves); NETWORK, set on each, names its network.
import { loadFunctionNetwork } from '../../lib/config'
import { swapTokensRoute } from '../../lib/networkRoutes/swapTokensRoute'

export const handler = swapTokensRoute(loadFunctionNetwork())
