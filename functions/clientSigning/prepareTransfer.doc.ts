// The doc of each network's function of `prepareTransfer`, with the examples of its table entry.
import { prepareTransferDoc } from '../../lib/openapi/networkRouteDocs'

export const docOf = prepareTransferDoc
