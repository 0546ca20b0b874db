import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleFunctions } from '../../../lib/local/bundleFunctions'
import { declaredFunctions } from '../../../lib/openapi/declaredFunctions'

// A work folder of its own, so the suite's own offline never sees its bundles rewritten.
const WORK_FOLDER = join('.test-output', 'bundle-functions')
const previousFolder = process.env.OFFLINE_BUILD_FOLDER

beforeAll(() => {
  rmSync(WORK_FOLDER, { recursive: true, force: true })
  process.env.OFFLINE_BUILD_FOLDER = WORK_FOLDER
})

afterAll(() => {
  if (previousFolder === undefined) delete process.env.OFFLINE_BUILD_FOLDER
  else process.env.OFFLINE_BUILD_FOLDER = previousFolder
})

const bundlePaths = () =>
  declaredFunctions().map((fn) => join(WORK_FOLDER, '.build', fn.entry.replace(/\.ts$/, '.js')))
const modifiedTimes = () => bundlePaths().map((path) => statSync(path).mtimeMs)

describe('bundleFunctions (npm start, the suite)', () => {
  it('bundles every function, then reuses the bundles while nothing they are built from changed', async () => {
    const first = await bundleFunctions()
    await first.dispose()
    const written = modifiedTimes()
    const second = await bundleFunctions()
    await second.dispose()

    // One bundle a handler file: a network operation's functions share theirs.
    const files = new Set(declaredFunctions().map((fn) => fn.entry))
    expect(first).toMatchObject({ reused: false, count: files.size })
    expect(bundlePaths().every((path) => existsSync(path))).toBe(true)
    expect(second).toMatchObject({ reused: true, count: first.count })
    expect(modifiedTimes()).toEqual(written)
    // What the reuse is keyed by: the handlers, the code they import and the packages' files.
    const manifest = JSON.parse(readFileSync(join(WORK_FOLDER, 'bundles.json'), 'utf8')) as {
      inputs: string[]
    }
    expect(manifest.inputs).toEqual(
      expect.arrayContaining([
        'functions/networks/listNetworks.ts',
        'lib/http/defineHandler.ts',
        expect.stringMatching(/^node_modules\/viem\//),
      ]),
    )
  })

  it('bundles again when a bundle is missing', async () => {
    const [missing] = bundlePaths()
    rmSync(missing ?? '')

    const again = await bundleFunctions()
    await again.dispose()

    expect(again.reused).toBe(false)
    expect(existsSync(missing ?? '')).toBe(true)
  })
})
