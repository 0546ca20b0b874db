import type { RouteDoc } from '../../lib/openapi/routeDoc'
import { EXAMPLE_CREDENTIALS } from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    'Registers a username (unique case-insensitively) and password; the password is kept only as an scrypt hash.',
  errors: [409],
  example: { body: EXAMPLE_CREDENTIALS, result: {} },
}
