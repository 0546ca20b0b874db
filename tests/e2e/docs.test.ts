import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { OPENAPI_FILE } from '../../lib/openapi/openApiDocument'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'

// Debian's chromium (`.ci/run` installs it); playwright-core never downloads a browser here.
const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const SCREENSHOT = '.test-output/docs/swagger-ui.png'

const apiUrl = () => inject('apiUrl')

// The DOM of an operation as the page script reads it (the project compiles without DOM types).
interface OperationBlock {
  querySelector(selector: string): {
    textContent: string | null
    getAttribute(name: string): string | null
  } | null
}

describe('the API reference over HTTP (serverless offline)', () => {
  it('serves the committed OpenAPI document at GET /api/docs/openapi.json', async () => {
    const response = await fetch(`${apiUrl()}/api/docs/openapi.json`)

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(await response.json()).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')))
  })

  it('serves Swagger UI from the package, gzipped when asked, and no other file', async () => {
    const plain = await fetch(`${apiUrl()}/api/docs/assets/swagger-ui.css`, {
      headers: { 'accept-encoding': 'identity' },
    })
    const gzipped = await fetch(`${apiUrl()}/api/docs/assets/swagger-ui-bundle.js`, {
      headers: { 'accept-encoding': 'gzip' },
    })
    const other = await fetch(`${apiUrl()}/api/docs/assets/package.json`)

    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toContain('text/css')
    expect(await plain.text()).toBe(
      readFileSync('node_modules/swagger-ui-dist/swagger-ui.css', 'utf8'),
    )
    expect(gzipped.status).toBe(200)
    expect(gzipped.headers.get('content-encoding')).toBe('gzip')
    // fetch inflates it: what arrives is the package's script.
    expect((await gzipped.text()).length).toBe(
      readFileSync('node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'utf8').length,
    )
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({
      ok: false,
      error: { code: 404, message: 'no such asset' },
    })
  })

  it('renders every route of serverless.yml in headless Chromium, with nothing from elsewhere', async () => {
    const routes = declaredFunctions().flatMap((fn) =>
      fn.route ? [`${fn.route.method} ${fn.route.path}`] : [],
    )
    const userDataDir = mkdtempSync(join(tmpdir(), 'chromium-'))
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    })
    try {
      const page = await context.newPage()
      const foreign: string[] = []
      page.on('request', (request) => {
        if (!request.url().startsWith(apiUrl())) foreign.push(request.url())
      })
      await page.goto(`${apiUrl()}/api/docs`)
      await page
        .locator('.opblock')
        .nth(routes.length - 1)
        .waitFor({ timeout: 20_000 })

      const listed = await page.$$eval('.opblock', (blocks: OperationBlock[]) =>
        blocks.map((block) => {
          const method = block.querySelector('.opblock-summary-method')?.textContent ?? ''
          const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path')
          return `${method.toUpperCase()} ${path ?? ''}`
        }),
      )
      mkdirSync('.test-output/docs', { recursive: true })
      await page.screenshot({ path: SCREENSHOT, fullPage: true })

      expect(listed).toHaveLength(routes.length)
      expect([...listed].sort()).toEqual([...routes].sort())
      expect(await page.locator('.errors-wrapper').count()).toBe(0)
      expect(foreign).toEqual([])
    } finally {
      await context.close()
      rmSync(userDataDir, { recursive: true, force: true })
    }
  })
})
