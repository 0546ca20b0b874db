// `npm run networks`: writes what the network table (lib/networks.ts) gives, each network's
// handler and doc files under functions/ and the generated blocks of serverless.yml
// (lib/networks/networkFiles.ts), and removes the handler files of a network no longer in the
// table. tests/unit/lib/networks/networkFiles.test.ts fails while any of it is stale.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { handlerFiles, looksLikeNetworkHandlerFile, withServerlessBlocks } from './networkFiles'

const SERVERLESS_FILE = 'serverless.yml'

function main(): void {
  const files = handlerFiles()
  let written = 0
  for (const [path, content] of Object.entries(files)) {
    const current = (() => {
      try {
        return readFileSync(path, 'utf8')
      } catch {
        return undefined
      }
    })()
    if (current === content) continue
    writeFileSync(path, content)
    written += 1
  }
  const stale = readdirSync('functions', { recursive: true, encoding: 'utf8' })
    .map((file) => join('functions', file))
    .filter((path) => looksLikeNetworkHandlerFile(path) && !(path in files))
  for (const path of stale) rmSync(path)
  const yaml = readFileSync(SERVERLESS_FILE, 'utf8')
  const updated = withServerlessBlocks(yaml)
  if (updated !== yaml) writeFileSync(SERVERLESS_FILE, updated)
  console.log(
    `${Object.keys(files).length} network handler and doc files (${written} written, ${stale.length} removed); ` +
      `${SERVERLESS_FILE} ${updated === yaml ? 'unchanged' : 'updated'}`,
  )
}

main()
