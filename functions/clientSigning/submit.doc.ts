// The doc of each network's function of `submit`, with the examples of its table entry.
import { submitDoc } from '../../lib/openapi/networkRouteDocs'

export const docOf = submitDoc
