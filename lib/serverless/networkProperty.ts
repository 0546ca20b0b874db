import { NETWORK_NAMES } from '../networkNames'

/**
 * The `network:` function property (serverless.yml): the network of the table a per-network route
 * serves, which puts it in that network's nested stack (stackLayout.ts) and leaves it out of a
 * stage that does not serve the network (servedNetworks.ts).
 */
export const NETWORK_PROPERTY_SCHEMA = { enum: NETWORK_NAMES }

/**
 * The `perNetwork:` function property: the block is a network operation's (named after it,
 * lib/networks/operations.ts), made a function per network the stage serves.
 */
export const PER_NETWORK_PROPERTY_SCHEMA = { type: 'boolean' }
