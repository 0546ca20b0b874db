import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cycles, folderGraph, importGraph as readImportGraph } from '../../../lib/docs/importGraph'
import { mayImport as allowed, roomMayImport, routingRoomOf } from '../../../lib/docs/layers'

// The layers are one model, lib/docs/layers.ts, which `npm run docs:layout` also writes the docs'
// layout tables from (docs/architecture.md). Highest first; a file may import its own layer or
// one below: handlers and tooling; lib/http; schemas (only schemas and the neutral modules);
// lib/<domain>; lib/chain | lib/wallet; lib/db | lib/aws; the neutral modules.
// Within a layer, folders may import each other one way only: no folder-to-folder loop (say
// lib/swap -> lib/transfer -> lib/swap), even when no file-level cycle closes it.

const ROOT = resolve(import.meta.dirname, '../../..')
const importGraph = () => readImportGraph(ROOT)

describe('the import graph of functions, schemas and lib', () => {
  const graph = importGraph()

  it('reads every source file and the imports between them', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get('lib/http/defineHandler.ts')).toContain('lib/admission.ts')
    expect(graph.get('lib/swap/signedSwap.ts')).toContain('lib/send/signedRequest.ts')
  })

  it('has no arrow pointing up a layer', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !allowed(file, target)).map((target) => `${file} → ${target}`),
    )
    expect(upward).toEqual([])
  })

  it('has routing import nothing of the send pipeline (send asks routing, never the reverse)', () => {
    const intoSend = [...graph].flatMap(([file, targets]) =>
      file.startsWith('lib/routing/')
        ? targets.filter((target) => target.startsWith('lib/send/')).map((t) => `${file} → ${t}`)
        : [],
    )
    expect(intoSend).toEqual([])
    expect(allowed('lib/routing/quote/bestRoute.ts', 'lib/send/gasLimit.ts')).toBe(false)
    expect(allowed('lib/send/gasLimit.ts', 'lib/routing/gas/estimateRouteGas.ts')).toBe(true)
  })

  it('has each room of lib/routing import only the rooms before it (lib/docs/layers.ts)', () => {
    const backward = [...graph].flatMap(([file, targets]) => {
      const from = routingRoomOf(file)
      return from === undefined
        ? []
        : targets
            .filter((target) => {
              const to = routingRoomOf(target)
              return to !== undefined && to !== from && !roomMayImport(from, to)
            })
            .map((target) => `${file} → ${target}`)
    })
    expect(backward).toEqual([])
    expect(roomMayImport('lib/routing/quote/', 'lib/routing/pools/')).toBe(true)
    expect(roomMayImport('lib/routing/pools/', 'lib/routing/search/')).toBe(false)
    expect(roomMayImport('lib/routing/nowhere/', 'lib/routing/pools/')).toBe(false)
  })

  it('has no cycle between files', () => {
    expect(cycles(graph)).toEqual([])
  })

  it('has no loop between folders', () => {
    expect(cycles(folderGraph(graph))).toEqual([])
  })

  it('finds an upward arrow when there is one', () => {
    expect(allowed('lib/db/project.ts', 'schemas/catalog.ts')).toBe(false)
    expect(allowed('lib/db/priceBucket.ts', 'lib/markets/recordPrice.ts')).toBe(false)
    expect(allowed('schemas/swap.ts', 'lib/swap/nativeCoin.ts')).toBe(false)
    expect(allowed('schemas/swap.ts', 'lib/constants.ts')).toBe(true)
    expect(allowed('lib/swap/quoteSwap.ts', 'lib/chain/clients.ts')).toBe(true)
    // lib/http sits above the domains: it may use lib/auth, no domain may use it.
    expect(allowed('lib/http/authenticate.ts', 'lib/auth/guard.ts')).toBe(true)
    expect(allowed('lib/auth/sessions.ts', 'lib/http/types.ts')).toBe(false)
    expect(allowed('lib/markets/listWatchlist.ts', 'lib/http/types.ts')).toBe(false)
  })

  it('finds a cycle of files, and a loop of folders no file cycle closes', () => {
    const fileLoop = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(cycles(fileLoop)).toEqual([['a.ts', 'b.ts', 'c.ts']])
    // The house before issue 24: lib/swap/signedRequest.ts imported lib/transfer, whose files
    // imported lib/swap's gas limit and send; and lib/auth and lib/http imported each other.
    const before = new Map([
      ['lib/swap/signedRequest.ts', ['lib/transfer/transferTokens.ts', 'lib/errors.ts']],
      ['lib/transfer/transferTokens.ts', ['lib/swap/gasLimit.ts', 'lib/errors.ts']],
      ['lib/swap/gasLimit.ts', ['lib/errors.ts']],
      ['lib/auth/tokens.ts', ['lib/http/types.ts']],
      ['lib/http/types.ts', []],
      ['lib/http/authGuard.ts', ['lib/auth/tokens.ts']],
      ['lib/errors.ts', []],
    ])
    expect(cycles(before)).toEqual([])
    expect(cycles(folderGraph(before))).toEqual([
      ['lib/swap', 'lib/transfer'],
      ['lib/auth', 'lib/http'],
    ])
  })
})
