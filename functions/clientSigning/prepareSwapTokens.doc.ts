// The doc of each network's function of `prepareSwapTokens`, with the examples of its table entry.
import { prepareSwapTokensDoc } from '../../lib/openapi/networkRouteDocs'

export const docOf = prepareSwapTokensDoc
