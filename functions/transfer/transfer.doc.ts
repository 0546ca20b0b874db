// The doc of each network's function of `transfer`, with the examples of its table entry.
import { transferDoc } from '../../lib/openapi/networkRouteDocs'

export const docOf = transferDoc
