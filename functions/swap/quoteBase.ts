// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// route, lib/networkRoutes/quoteRoute.ts, it calls is where to edit.
import { quoteRoute } from '../../lib/networkRoutes/quoteRoute'

export const handler = quoteRoute('base')
