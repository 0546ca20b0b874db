// One function per network runs this file (serverless.yml's `swapNative` block, made a function per
// network the stage serves); NETWORK, set on each, names its network.
import { loadFunctionNetwork } from '../../lib/config'
import { swapNativeRoute } from '../../lib/networkRoutes/swapNativeRoute'

export const handler = swapNativeRoute(loadFunctionNetwork())
