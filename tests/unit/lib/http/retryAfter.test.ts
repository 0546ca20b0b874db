import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import fc from 'fast-check'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { AppError, TooManyRequests } from '../../../../lib/errors'
import { errorHandler } from '../../../../lib/http/errorHandler'
import type { HttpRequest } from '../../../../lib/http/types'

// Every 429 the service answers carries `Retry-After` (DECISIONS §10.4). Where a 429 can come
// from: TooManyRequests (its seconds are a required argument), and nothing else of ours; DynamoDB
// throttling is a 503 (lib/db/client.ts) and a node's 429 a 502 (lib/chain/chainError.ts). Only
// the gateway's own capacity guard answers 429 without one (docs/security.md).

const ROOT = resolve(import.meta.dirname, '../../../..')

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
}

/** Every `new X(...)` and `super(...)` of the service's source, with its arguments' text. */
function constructions() {
  const found: Array<{ file: string; callee: string; args: string[] }> = []
  for (const file of ['functions', 'schemas', 'lib'].flatMap(sourceFiles)) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), 99, true)
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) || ts.isCallExpression(node)) {
        const callee = node.expression.getText(source)
        if (ts.isNewExpression(node) || callee === 'super' || callee === 'statusError') {
          found.push({ file, callee, args: (node.arguments ?? []).map((a) => a.getText(source)) })
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

async function answer(error: Error) {
  const request = { event: {}, context: {}, error } as unknown as HttpRequest
  await errorHandler().onError?.(request)
  return request.response
}

describe('Retry-After on every 429', () => {
  const all = constructions()

  it('builds every TooManyRequests with its seconds, and no other error of status 429', () => {
    const tooMany = all.filter(({ callee }) => callee === 'TooManyRequests')
    // Per-client budgets (lib/db/clientBudget.ts) and credential checks (lib/auth/).
    expect(tooMany.length).toBeGreaterThanOrEqual(2)
    for (const { file, args } of tooMany) {
      expect({ file, arity: args.length, seconds: args[1] }).toEqual({
        file,
        arity: 2,
        seconds: expect.not.stringMatching(/^(undefined|null|0)$/),
      })
    }
    // A status of 429 is set in one place: TooManyRequests' own super call.
    const with429 = all.filter(({ args }) => args[0] === '429')
    expect(with429.map(({ file, callee }) => `${file} ${callee}`)).toEqual(['lib/errors.ts super'])
  })

  it('answers any TooManyRequests 429 with Retry-After of at least a second, whatever its seconds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0, max: 3600, noNaN: true }), async (seconds) => {
        const response = await answer(new TooManyRequests('slow down', seconds))
        expect(response?.statusCode).toBe(429)
        const header = Number(response?.headers?.['retry-after'])
        expect(Number.isInteger(header)).toBe(true)
        expect(header).toBeGreaterThanOrEqual(Math.max(1, seconds))
        expect(header).toBeLessThan(Math.max(1, seconds) + 1)
      }),
      { seed: 39, numRuns: 200 },
    )
  })

  it('has no error class other than TooManyRequests whose status is 429', () => {
    const classes = all.filter(({ callee }) => callee === 'super' || callee === 'statusError')
    const statuses = classes.map(({ args }) => args[0])
    expect(statuses.filter((status) => status === '429')).toHaveLength(1)
    expect(new TooManyRequests('x', 1)).toBeInstanceOf(AppError)
  })
})
