// The doc of each network's function of `swapTokens`, with the examples of its table entry.
import { swapTokensDoc } from '../../lib/openapi/networkRouteDocs'

export const docOf = swapTokensDoc
