import { NETWORK_TABLE } from '../networks'

/**
 * The `network:` function property (serverless.yml): the network of the table a per-network route
 * serves, which puts it in that network's nested stack (stackLayout.ts) and leaves it out of a
 * stage that does not serve the network (servedNetworks.ts).
 */
export const NETWORK_PROPERTY_SCHEMA = { enum: Object.keys(NETWORK_TABLE) }
