import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { declaredFunctions } from '../../lib/openapi/declaredFunctions'

// Docs that cannot drift (issue 35): every repository path and every route that README.md,
// docs/*.md and BENCHMARKS.md name must exist, the paths in the tree and the routes in
// serverless.yml. What counts as a name:
//   - a link target, relative to the document (`[docs/api.md](docs/api.md)`);
//   - in a code span, each word that starts with a top-level folder or file of the repository
//     (`lib/db/keys.ts`, `tests/unit/`), or a bare file name (`sendSigned.ts`): that one must be
//     a top-level file (`serverless.yml`), since a bare name passes for any file of that name
//     (issue 42): a doc names every other file by its full path;
//   - a route: `METHOD /path` anywhere in the text, or a code span that starts with `/api/`,
//     `/v1/` or the first folder of a declared route (`/swap/tokens/ethereum`).
// `<name>`, `{name}`, `*` and an elision (`...`, `…`) stand for any one folder (`**`, `...` and
// `…` for several); `{a,b}` and `{a|b}` list alternatives. Names under a git-ignored folder
// (`.cache/solc`) are made by a run, not kept in the tree, and outside the repository
// (`../shared`) are not its to check.

const ROOT = resolve(import.meta.dirname, '../..')
const DOCUMENTS = [
  'README.md',
  'BENCHMARKS.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]
/** What a run writes (.gitignore's top-level entries), and git's own folder. */
const GENERATED = new Set([
  '.git',
  ...readFileSync(join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
    .filter((line) => line !== '' && !line.startsWith('#') && !line.includes('*')),
])
/** Every file and folder of the tree, relative to the root, folders with a trailing slash. */
const TREE = walk('')
const TOP_LEVEL = new Set(TREE.filter((path) => !path.slice(0, -1).includes('/')))
const FILE_NAME = /^[\w.-]+\.(ts|mts|cjs|mjs|js|json|ya?ml|md|sol)$/
const METHODS = 'GET|POST|PUT|PATCH|DELETE'

function walk(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}${entry.name}`
    if (folder === '' && GENERATED.has(entry.name)) return []
    return entry.isDirectory() ? [`${path}/`, ...walk(`${path}/`)] : [path]
  })
}

/** A pattern's folders as regular expressions over the tree's paths. */
function patternOf(name: string): RegExp {
  const segment = (text: string) => {
    if (text === '**' || text === '...' || text === '…') return '.+'
    const alternatives = /^\{([^{}]*[,|][^{}]*)\}$/.exec(text)
    if (alternatives) {
      return `(?:${(alternatives[1] ?? '').split(/[,|]/).map(escape).join('|')})`
    }
    return text
      .split(/(<[^>]*>|\{[^}]*\}|\*|\.\.\.|…)/)
      .map((part) => (/^(<.*>|\{.*\}|\*|\.\.\.|…)$/.test(part) ? '[^/]+' : escape(part)))
      .join('')
  }
  return new RegExp(`^${name.split('/').map(segment).join('/')}$`)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function hasWildcard(name: string): boolean {
  return /<[^>]*>|\{[^}]*\}|\*|\.\.\.|…/.test(name)
}

/** Whether a repository path (a folder ends with `/`) exists in the tree. */
function existsInTree(path: string): boolean {
  const folder = path.endsWith('/')
  const bare = folder ? path.slice(0, -1) : path
  if (!hasWildcard(bare)) return existsSync(join(ROOT, bare))
  const pattern = patternOf(bare)
  return TREE.some((entry) => {
    const candidate = entry.endsWith('/') ? entry.slice(0, -1) : entry
    return (!folder || entry.endsWith('/')) && pattern.test(candidate)
  })
}

/** Whether a name without a folder is a top-level file or folder (a bare name of a deeper file is not). */
function namesTopLevel(name: string): boolean {
  return TOP_LEVEL.has(name) || TOP_LEVEL.has(`${name}/`)
}

interface Named {
  document: string
  line: number
  name: string
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length
}

/** The repository paths a document names, each where it names it. */
function pathsNamed(document: string, text: string): Named[] {
  const named: Named[] = []
  const add = (index: number, name: string) =>
    named.push({ document, line: lineOf(text, index), name })
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (match[1] ?? '').split('#')[0] ?? ''
    if (target === '' || /^[a-z]+:/.test(target)) continue
    const path = normalize(join(dirname(document), target))
    if (!path.startsWith('..')) add(match.index, path)
  }
  // Anywhere in the text, code or prose: a path under a top-level folder.
  for (const match of text.matchAll(/(?<![\w/.@~-])([\w.-]+\/[\w./<>{}*…-]*)/g)) {
    const name = (match[1] ?? '').replace(/^\.\//, '').replace(/[.,;:]+$/, '')
    if (TOP_LEVEL.has(`${name.split('/')[0] ?? ''}/`)) add(match.index, name)
  }
  // In code spans: a top-level file, or a bare file name.
  for (const match of text.matchAll(/`([^`\n]+)`/g)) {
    for (const word of (match[1] ?? '').split(/\s+/)) {
      const name = word.replace(/^[("']+|[)"',;:]+$/g, '')
      if (name.includes('/')) continue
      if (TOP_LEVEL.has(name) || TOP_LEVEL.has(`${name}/`) || FILE_NAME.test(name)) {
        add(match.index, name)
      }
    }
  }
  return named
}

/** The routes a document names, as `METHOD /path` or a path alone. */
function routesNamed(document: string, text: string, areas: Set<string>): Named[] {
  const named: Named[] = []
  const route = `((?:${METHODS}) )?(/[^\\s\`|)]*)`
  for (const match of text.matchAll(new RegExp(`\\b(${METHODS}) (/[^\\s\`)]*)`, 'g'))) {
    named.push({ document, line: lineOf(text, match.index), name: `${match[1]} ${match[2]}` })
  }
  for (const match of text.matchAll(new RegExp(`\`${route}\``, 'g'))) {
    if (match[1]) continue
    const path = match[2] ?? ''
    const first =
      path
        .replace(/^\/api(?=\/)/, '')
        .replace(/^\/v1(?=\/)/, '')
        .split('/')[1] ?? ''
    if (/^\/(api|v1)\//.test(path) || areas.has(first)) {
      named.push({ document, line: lineOf(text, match.index), name: path })
    }
  }
  return named
}

/** `/api/v1/swap/quote/ethereum?amount=1` → `/swap/quote/ethereum`: the part every form shares. */
function routeBody(path: string): string {
  return (
    path
      .split('?')[0]
      ?.replace(/[.,;:]+$/, '')
      .replace(/^\/api(?=\/|$)/, '')
      .replace(/^\/v1(?=\/|$)/, '') ?? ''
  )
}

const routes = declaredFunctions(join(ROOT, 'serverless.yml')).flatMap((fn) =>
  fn.route ? [{ method: fn.route.method, path: fn.route.path }] : [],
)

/** Whether a named route (`POST /v1/watchlist/{projectId}`, `/swap/…/{key}`) is declared. */
function routeDeclared(name: string): boolean {
  const [method, path] = name.includes(' ') ? name.split(' ') : [undefined, name]
  const body = routeBody(path ?? '')
  // A trailing `/` or `/*` names every route under that folder.
  const under = /\/\*?$/.test(body) && body.length > 1
  const pattern = patternOf(under ? `${body.replace(/\/\*?$/, '')}/**` : body)
  return routes.some((declared) => {
    const declaredBody = routeBody(declared.path)
    // A declared `{param}` is one folder whatever the doc calls it.
    const concrete = declaredBody.replace(/\{[^}]+\}/g, '{}')
    return (
      (method === undefined || declared.method === method) &&
      (pattern.test(declaredBody) ||
        pattern.test(concrete) ||
        patternOf(concrete.replace(/\{\}/g, '<param>')).test(body))
    )
  })
}

const areas = new Set(routes.map((route) => routeBody(route.path).split('/')[1] ?? ''))
const documents = DOCUMENTS.map((document) => ({
  document,
  text: readFileSync(join(ROOT, document), 'utf8'),
}))

describe('the docs name only what exists', () => {
  it('finds the names it checks (the extraction is not empty)', () => {
    const paths = documents.flatMap(({ document, text }) => pathsNamed(document, text))
    const routeNames = documents.flatMap(({ document, text }) => routesNamed(document, text, areas))

    expect(paths.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['lib/db/keys.ts', 'docs/local-development.md', 'serverless.yml']),
    )
    expect(routeNames.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['GET /v1/networks', 'POST /api/v1/auth/login']),
    )
  })

  it('names only repository paths that exist', () => {
    const missing = documents
      .flatMap(({ document, text }) => pathsNamed(document, text))
      .filter(({ name }) => {
        if (name.includes('/')) return !existsInTree(name)
        return !namesTopLevel(name)
      })
      .map(({ document, line, name }) => `${document}:${line} ${name}`)

    expect(missing).toEqual([])
  })

  it('names only routes that serverless.yml declares', () => {
    const missing = documents
      .flatMap(({ document, text }) => routesNamed(document, text, areas))
      .filter(({ name }) => !routeDeclared(name))
      .map(({ document, line, name }) => `${document}:${line} ${name}`)

    expect(missing).toEqual([])
  })

  it('tells a missing path and an undeclared route from real ones', () => {
    expect(existsInTree('lib/db/keys.ts')).toBe(true)
    expect(existsInTree('functions/<area>/<operation>.ts')).toBe(true)
    expect(existsInTree('lib/http/sessionGate.ts')).toBe(false)
    expect(existsInTree('tests/lib/importGraph.test.ts')).toBe(false)
    expect(namesTopLevel('serverless.yml')).toBe(true)
    expect(namesTopLevel('sendSigned.ts')).toBe(false)
    expect(existsInTree('lib/send/sendSigned.ts')).toBe(true)
    expect(routeDeclared('GET /api/v1/swap/quote/{network}')).toBe(true)
    expect(routeDeclared('POST /v1/watchlist/{projectId}')).toBe(true)
    expect(routeDeclared('DELETE /v1/networks/wallet')).toBe(false)
    expect(routeDeclared('GET /v1/session/gate')).toBe(false)
  })
})
