import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { jsonResponse } from '../../lib/http/envelope'
import type { HttpEvent, HttpResponse } from '../../lib/http/types'

// Swagger UI's script is 1.7 MB: it ships beside the bundle (package.patterns in serverless.yml)
// and is read from disk, never bundled. Lambda (/var/task) and serverless offline both run in
// the service root, where the files keep their node_modules path.
const ASSET_DIR = join(process.cwd(), 'node_modules', 'swagger-ui-dist')

const CONTENT_TYPES = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
])

// Read and compressed once per container; the HTTP API does not compress responses itself.
const assets = new Map<string, { plain: Buffer; gzipped: Buffer }>()

function readAsset(file: string) {
  let asset = assets.get(file)
  if (!asset) {
    const plain = readFileSync(join(ASSET_DIR, file))
    asset = { plain, gzipped: gzipSync(plain) }
    assets.set(file, asset)
  }
  return asset
}

export const handler = async (event: HttpEvent): Promise<HttpResponse> => {
  const file = event.pathParameters?.file ?? ''
  const contentType = CONTENT_TYPES.get(file)
  if (!contentType) {
    return jsonResponse(404, { ok: false, error: { code: 404, message: 'no such asset' } })
  }
  const gzip = /\bgzip\b/.test(event.headers?.['accept-encoding'] ?? '')
  const asset = readAsset(file)
  return {
    statusCode: 200,
    headers: {
      'content-type': contentType,
      'cache-control': 'public, max-age=86400',
      vary: 'accept-encoding',
      ...(gzip && { 'content-encoding': 'gzip' }),
    },
    isBase64Encoded: true,
    body: (gzip ? asset.gzipped : asset.plain).toString('base64'),
  }
}
