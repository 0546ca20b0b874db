import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { layoutDocuments } from './layoutDocs'

// npm run docs:layout: rewrites the layout sections of README.md and docs/architecture.md from the
// import graph and lib/docs/layers.ts.
async function main() {
  const root = resolve(import.meta.dirname, '../..')
  for (const { path, current, written } of await layoutDocuments(root)) {
    if (written !== current) writeFileSync(join(root, path), written)
    console.log(`${path}: ${written === current ? 'unchanged' : 'written'}`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
