import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bundleInputsKey } from '../../../../lib/local/bundleFunctions'

// The key under which npm start reuses the bundles of an earlier start (lib/local/bundleFunctions.ts).
describe('bundleInputsKey', () => {
  const folder = mkdtempSync(join(tmpdir(), 'bundle-key-'))
  const input = (name: string, content: string) => {
    const path = join(folder, name)
    writeFileSync(path, content)
    return path
  }

  it('is the same for the same options and the same input contents', async () => {
    const handler = input('handler.ts', 'export const handler = () => 1\n')
    const library = input('library.ts', 'export const two = 2\n')

    const first = await bundleInputsKey('{"minify":false}', [handler, library])
    const again = await bundleInputsKey('{"minify":false}', [handler, library])

    expect(again).toBe(first)
    expect(first).toMatch(/^[0-9a-f]{64}$/)
  })

  it('changes with one byte of one input, with the options, and with the list of inputs', async () => {
    const handler = input('changing.ts', 'export const handler = () => 1\n')
    const library = input('other.ts', 'export const two = 2\n')
    const before = await bundleInputsKey('{"minify":false}', [handler, library])

    const otherOptions = await bundleInputsKey('{"minify":true}', [handler, library])
    const fewerInputs = await bundleInputsKey('{"minify":false}', [handler])
    input('changing.ts', 'export const handler = () => 2\n')
    const edited = await bundleInputsKey('{"minify":false}', [handler, library])

    expect(new Set([before, otherOptions, fewerInputs, edited]).size).toBe(4)
  })

  it('rejects when an input is gone, so the bundles are built again', async () => {
    await expect(bundleInputsKey('{}', [join(folder, 'deleted-since.ts')])).rejects.toThrow(
      /ENOENT/,
    )
  })
})
