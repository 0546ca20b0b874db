// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// route, lib/networkRoutes/submitRoute.ts, it calls is where to edit.
import { submitRoute } from '../../lib/networkRoutes/submitRoute'

export const handler = submitRoute('altchain')
