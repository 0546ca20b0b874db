import type { RouteDoc } from '../../lib/openapi/routeDoc'
import {
  ACCOUNT_ID,
  EXAMPLE_CREDENTIALS,
  exampleDeviceToken,
  tokenPair,
} from '../../lib/openapi/exampleValues'

export const doc: RouteDoc = {
  description:
    "Signs an account in with username and password. Answers an access and a refresh token, and `device`, a token of this device for this username (90 days) to send with the next login: a username gets at most 10 password checks per 15 minutes from devices without one (429 with `Retry-After` beyond), and a login with a valid one is held only by its own client's budget.",
  errors: [429],
  credentials: true,
  example: async () => ({
    body: { ...EXAMPLE_CREDENTIALS, device: exampleDeviceToken(1) },
    result: { token: await tokenPair('account', ACCOUNT_ID, 1), device: exampleDeviceToken(2) },
  }),
}
