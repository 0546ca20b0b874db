// One function per network runs this file (serverless.yml's `submit` block, made a function per
// network the stage serves); NETWORK, set on each, names its network.
import { loadFunctionNetwork } from '../../lib/config'
import { submitRoute } from '../../lib/networkRoutes/submitRoute'

export const handler = submitRoute(loadFunctionNetwork())
