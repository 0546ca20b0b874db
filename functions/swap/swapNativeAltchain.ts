// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// route, lib/networkRoutes/swapNativeRoute.ts, it calls is where to edit.
import { swapNativeRoute } from '../../lib/networkRoutes/swapNativeRoute'

export const handler = swapNativeRoute('altchain')
