// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// route, lib/networkRoutes/transferRoute.ts, it calls is where to edit.
import { transferRoute } from '../../lib/networkRoutes/transferRoute'

export const handler = transferRoute('altchain')
