// One function per network runs this file (serverless.yml's `prepareSwapNative` block, made a function per
// network the stage serves); NETWORK, set on each, names its network.
import { loadFunctionNetwork } from '../../lib/config'
import { prepareSwapNativeRoute } from '../../lib/networkRoutes/prepareSwapNativeRoute'

export const handler = prepareSwapNativeRoute(loadFunctionNetwork())
