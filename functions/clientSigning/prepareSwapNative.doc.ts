// The doc of each network's function of `prepareSwapNative`, with the examples of its table entry.
import { prepareSwapNativeDoc } from '../../lib/openapi/networkRouteDocs'

export const docOf = prepareSwapNativeDoc
