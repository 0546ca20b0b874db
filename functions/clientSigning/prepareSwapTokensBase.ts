// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// route, lib/networkRoutes/prepareSwapTokensRoute.ts, it calls is where to edit.
import { prepareSwapTokensRoute } from '../../lib/networkRoutes/prepareSwapTokensRoute'

export const handler = prepareSwapTokensRoute('base')
