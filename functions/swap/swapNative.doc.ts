// The doc of each network's function of `swapNative`, with the examples of its table entry.
import { swapNativeDoc } from '../../lib/openapi/networkRouteDocs'

export const docOf = swapNativeDoc
