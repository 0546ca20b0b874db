import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { quoteQuerySchema } from '../../../schemas/swap'
import * as z from '../../../schemas/zod'
import { partRules } from '../../support/schemaBreakers'

// The bad-input sweep's field cases come from the schemas (tests/support/schemaBreakers.ts): each
// field's generated values are ones its schema refuses, and a field added to a schema gets its
// cases with no edit to the sweep.

const SEED = Number(process.env.SWEEP_SEED ?? 4242)
const VALID = {
  amount: '1.5',
  address0: `0x${'1'.repeat(40)}`,
  decimals0: '18',
  address1: `0x${'2'.repeat(40)}`,
  decimals1: '6',
}

function refusedSamples(
  schema: z.core.$ZodType,
  fields: Record<string, { bad: fc.Arbitrary<unknown> }>,
) {
  return Object.entries(fields).map(([name, rule]) => ({
    name,
    accepted: fc
      .sample(rule.bad, { numRuns: 40, seed: SEED })
      .filter((value) => z.safeParse(schema, { ...VALID, [name]: value }).success),
  }))
}

describe('the bad-input cases derived from a schema', () => {
  it("gives every field of the quote's query values its schema refuses, and knows which are required", () => {
    console.log(`schemaBreakers seed ${SEED} (SWEEP_SEED replays it)`)
    expect(z.safeParse(quoteQuerySchema, VALID).success).toBe(true)
    const { fields, strict } = partRules(quoteQuerySchema, 'query', {
      queryStringParameters: VALID,
    })

    expect(strict).toBe(true)
    expect(Object.keys(fields).sort()).toEqual([
      'address0',
      'address1',
      'amount',
      'decimals0',
      'decimals1',
      'recipient',
      'slippageBps',
      'type',
    ])
    expect(
      Object.keys(fields)
        .filter((name) => fields[name]?.required)
        .sort(),
    ).toEqual(['address0', 'address1', 'amount', 'decimals0', 'decimals1'])
    expect(refusedSamples(quoteQuerySchema, fields)).toEqual(
      Object.keys(fields).map((name) => ({ name, accepted: [] })),
    )
  })

  it('covers a field added to a schema with no edit (as an exact-output `type` will be)', () => {
    const shape = (quoteQuerySchema._zod.def as { shape: Record<string, z.core.$ZodType> }).shape
    const withType = z.strictObject({
      ...shape,
      type: z._default(z.enum(['exactIn', 'exactOut']), 'exactIn'),
    })
    const { fields } = partRules(withType, 'query', { queryStringParameters: VALID })

    expect(fields.type).toMatchObject({ required: false })
    const [typeCases] = refusedSamples(withType, { type: fields.type! })
    expect(typeCases).toEqual({ name: 'type', accepted: [] })
  })
})
