import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { TEST_PHRASE } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description: 'A new 12-word BIP39 English phrase from a CSPRNG. Nothing is stored.',
  errors: [],
  example: { result: { mnemonic: TEST_PHRASE } },
}
