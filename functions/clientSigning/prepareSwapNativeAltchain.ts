// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// route, lib/networkRoutes/prepareSwapNativeRoute.ts, it calls is where to edit.
import { prepareSwapNativeRoute } from '../../lib/networkRoutes/prepareSwapNativeRoute'

export const handler = prepareSwapNativeRoute('altchain')
