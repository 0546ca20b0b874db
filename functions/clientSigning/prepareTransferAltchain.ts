// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// route, lib/networkRoutes/prepareTransferRoute.ts, it calls is where to edit.
import { prepareTransferRoute } from '../../lib/networkRoutes/prepareTransferRoute'

export const handler = prepareTransferRoute('altchain')
