import * as z from './zod'

export const networkNameSchema = z.enum(['ethereum', 'altchain'])

export const networkSchema = z.object({
  id: z.uuid(),
  network: networkNameSchema,
})

export const listNetworksResultSchema = z.object({
  networks: z.array(networkSchema),
})

export type ListNetworksResult = z.infer<typeof listNetworksResultSchema>

export const attachNetworksBodySchema = z.strictObject({
  // Optional in the interface: no ids attaches nothing. Repeats are harmless. A refine rather
  // than a length check, which zod also reports against a string given in place of the array.
  networkIds: z._default(
    z
      .array(z.uuid())
      .check(z.refine((ids: string[]) => ids.length <= 20, 'must hold at most 20 ids')),
    [],
  ),
})
export type AttachNetworksBody = z.infer<typeof attachNetworksBodySchema>

export const walletBalancesResultSchema = z.object({
  networksBalance: z.array(z.object({ network: networkNameSchema, balance: z.number() })),
})
export type WalletBalancesResult = z.infer<typeof walletBalancesResultSchema>
