import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { format, resolveConfig } from 'prettier'
import { importGraph } from './importGraph'
import { layoutSection, withLayoutSection } from './layoutTables'

/** The documents that carry the layout section. */
export const LAYOUT_DOCUMENTS = ['README.md', 'docs/architecture.md'] as const

/** Each layout document as it is and as `npm run docs:layout` would write it. */
export async function layoutDocuments(
  root: string,
): Promise<{ path: string; current: string; written: string }[]> {
  const section = layoutSection(importGraph(root))
  return Promise.all(
    LAYOUT_DOCUMENTS.map(async (path) => {
      const file = join(root, path)
      const current = readFileSync(file, 'utf8')
      const options = (await resolveConfig(file)) ?? {}
      const written = await format(withLayoutSection(current, section), {
        ...options,
        filepath: file,
      })
      return { path, current, written }
    }),
  )
}
