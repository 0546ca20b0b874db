import * as z from './zod'

// Shapes every session route shares; kept apart from schemas/auth.ts so account routes carry no viem.

export const sessionTokensSchema = z.object({ access: z.string(), refresh: z.string() })
export type SessionTokensResult = z.infer<typeof sessionTokensSchema>

export const emptyResultSchema = z.object({})
export type EmptyResult = z.infer<typeof emptyResultSchema>
