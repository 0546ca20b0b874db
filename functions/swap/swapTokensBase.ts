// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// route, lib/networkRoutes/swapTokensRoute.ts, it calls is where to edit.
import { swapTokensRoute } from '../../lib/networkRoutes/swapTokensRoute'

export const handler = swapTokensRoute('base')
