import * as z from 'zod'

export const networkNameSchema = z.enum(['ethereum', 'altchain'])

export const networkSchema = z.object({
  id: z.uuid(),
  network: networkNameSchema,
})

export const listNetworksResultSchema = z.object({
  networks: z.array(networkSchema),
})

export type ListNetworksResult = z.infer<typeof listNetworksResultSchema>
