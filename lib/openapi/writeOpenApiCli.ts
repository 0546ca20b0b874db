// `npm run openapi`: writes the OpenAPI document built from serverless.yml and the handlers' zod
// schemas to schemas/openapi.json, which GET /api/docs/openapi.json serves. A test fails when the
// committed file is stale.
import { writeFileSync } from 'node:fs'
import { OPENAPI_FILE, openApiDocument, serializeOpenApi } from './openApiDocument'

async function main(): Promise<void> {
  const document = await openApiDocument()
  const text = serializeOpenApi(document)
  writeFileSync(OPENAPI_FILE, text)
  const operations = Object.values(document.paths).flatMap((path) => Object.keys(path)).length
  console.log(`${OPENAPI_FILE}: ${operations} operations, ${Math.round(text.length / 1024)} KB`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
