// One function per network runs this file (serverless.yml's `prepareTransfer` block, made a function per
// network the stage serves); NETWORK, set on each, names its network.
import { loadFunctionNetwork } from '../../lib/config'
import { prepareTransferRoute } from '../../lib/networkRoutes/prepareTransferRoute'

export const handler = prepareTransferRoute(loadFunctionNetwork())
