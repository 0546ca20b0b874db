// One function per network runs this file (serverless.yml's `transfer` block, made a function per
// network the stage serves); NETWORK, set on each, names its network.
import { loadFunctionNetwork } from '../../lib/config'
import { transferRoute } from '../../lib/networkRoutes/transferRoute'

export const handler = transferRoute(loadFunctionNetwork())
