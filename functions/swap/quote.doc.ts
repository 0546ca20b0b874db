// The doc of each network's function of `quote`, with the examples of its table entry.
import { quoteDoc } from '../../lib/openapi/networkRouteDocs'

export const docOf = quoteDoc
