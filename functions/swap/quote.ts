// One function per network runs this file (serverless.yml's `quote` block, made a function per
// network the stage serves); NETWORK, set on each, names its network.
import { loadFunctionNetwork } from '../../lib/config'
import { quoteRoute } from '../../lib/networkRoutes/quoteRoute'

export const handler = quoteRoute(loadFunctionNetwork())
