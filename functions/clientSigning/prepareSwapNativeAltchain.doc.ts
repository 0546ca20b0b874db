// Written by `npm run networks` from the network table (lib/networks.ts), not by hand: the
// doc, lib/openapi/networkRouteDocs.ts, it calls is where to edit.
import { prepareSwapNativeDoc } from '../../lib/openapi/networkRouteDocs'

export const doc = prepareSwapNativeDoc('altchain')
