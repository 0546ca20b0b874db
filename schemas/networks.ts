import { documented, exactAmountString, uuidString } from './formats'
import { NETWORK_NAMES } from '../lib/networkNames'
import * as z from './zod'

export const networkNameSchema = z.enum(NETWORK_NAMES)

/** A network's id is derived from its name, so there is at most one item per name. */
const MAX_NETWORKS = networkNameSchema.options.length

export const networkSchema = z.object({
  id: uuidString,
  network: networkNameSchema,
})

export const listNetworksResultSchema = z.object({
  networks: z.array(networkSchema).check(z.maxLength(MAX_NETWORKS)),
})

export type ListNetworksResult = z.infer<typeof listNetworksResultSchema>

/** The most ids one request attaches (repeats included). */
export const MAX_ATTACHED_IDS = 20

export const attachNetworksBodySchema = z.strictObject({
  // Optional in the interface: no ids attaches nothing. Repeats are harmless. A refine rather
  // than a length check, which zod also reports against a string given in place of the array.
  networkIds: z._default(
    documented(
      z
        .array(uuidString)
        .check(
          z.refine(
            (ids: string[]) => ids.length <= MAX_ATTACHED_IDS,
            `must hold at most ${MAX_ATTACHED_IDS} ids`,
          ),
        ),
      { maxItems: MAX_ATTACHED_IDS },
    ),
    [],
  ),
})
export type AttachNetworksBody = z.infer<typeof attachNetworksBodySchema>

/** The native balance in whole coins, and its exact twin. */
export const networkBalanceSchema = z.object({
  network: networkNameSchema,
  balance: z.number(),
  balanceExact: exactAmountString,
})

export const walletBalancesResultSchema = z.object({
  networksBalance: z.array(networkBalanceSchema).check(z.maxLength(MAX_NETWORKS)),
})
export type WalletBalancesResult = z.infer<typeof walletBalancesResultSchema>
