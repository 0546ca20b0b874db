import {
  FOLDER_ROLES,
  FORBIDDEN_ARROWS,
  LAYERS,
  NEUTRAL_FILES,
  rankOf,
  roleFolderOf,
  ROUTING_ROOMS,
  routingRoomOf,
} from './layers'

// The docs' layout sections, drawn from the import graph (issue 42): which folders each layer
// holds, what each holds, the arrows between the domains, and the routing engine's rooms.
// `npm run docs:layout` writes them between their markers; tests/unit/lib/docs/layoutDocs.test.ts
// fails while a doc is stale.

export const LAYOUT_START =
  '<!-- layout: written by `npm run docs:layout` from lib/docs/layers.ts -->'
export const LAYOUT_END = '<!-- /layout -->'

/** The role folders of the source: every `functions/<area>/`, `lib/<x>/` and `schemas/`. */
function roleFolderGraph(graph: Map<string, string[]>): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    const from = roleFolderOf(file)
    if (from === undefined) continue
    const arrows = folders.get(from) ?? new Set<string>()
    folders.set(from, arrows)
    for (const target of targets) {
      const to = roleFolderOf(target)
      if (to !== undefined && to !== from) arrows.add(to)
    }
  }
  return folders
}

/** A folder's layer: the rank of any of its files (a folder never spans two layers). */
function folderRank(folder: string): number {
  return rankOf(folder.replace('<area>/', 'area/') + 'file.ts')
}

/** Importers before what they import within a layer (the graph has no loop), then by name. */
function topologicalOrder(folders: string[], arrows: Map<string, Set<string>>): string[] {
  const order: string[] = []
  const placed = new Set<string>()
  const place = (folder: string, seen: Set<string>) => {
    if (placed.has(folder) || seen.has(folder)) return
    seen.add(folder)
    const importers = folders.filter((other) => arrows.get(other)?.has(folder))
    for (const importer of importers.sort()) place(importer, seen)
    placed.add(folder)
    order.push(folder)
  }
  for (const folder of [...folders].sort()) place(folder, new Set())
  return order
}

/** Role folders with source but no description, and descriptions of folders without source. */
export function undescribedFolders(graph: Map<string, string[]>): {
  undescribed: string[]
  stale: string[]
} {
  const present = new Set(roleFolderGraph(graph).keys())
  return {
    undescribed: [...present].filter((folder) => !FOLDER_ROLES.has(folder)).sort(),
    stale: [...FOLDER_ROLES.keys()].filter((folder) => !present.has(folder)).sort(),
  }
}

/** The layout table, highest layer first: every arrow of the code points down it. */
export function layoutTable(graph: Map<string, string[]>): string {
  const arrows = roleFolderGraph(graph)
  const rows = ['| layer | folder | what lives there |', '| --- | --- | --- |']
  for (const layer of LAYERS) {
    const folders = [...arrows.keys()].filter((folder) => folderRank(folder) === layer.rank)
    for (const folder of topologicalOrder(folders, arrows)) {
      rows.push(`| ${layer.name} | \`${folder}\` | ${FOLDER_ROLES.get(folder) ?? '?'} |`)
    }
  }
  for (const [file, role] of NEUTRAL_FILES) rows.push(`| neutral | \`${file}\` | ${role} |`)
  return rows.join('\n')
}

/** The arrows between the domains (`lib/<domain>` to `lib/<domain>`), as the code has them. */
export function domainArrows(graph: Map<string, string[]>): string {
  const arrows = roleFolderGraph(graph)
  const domains = [...arrows.keys()].filter((folder) => folderRank(folder) === 3)
  const name = (folder: string) => folder.slice('lib/'.length, -1)
  const lines = topologicalOrder(domains, arrows).flatMap((folder) => {
    const targets = [...(arrows.get(folder) ?? [])].filter((target) => domains.includes(target))
    return targets.length === 0
      ? []
      : [`\`${name(folder)} → ${targets.map(name).sort().join(', ')}\``]
  })
  const alone = domains.filter(
    (folder) =>
      ![...(arrows.get(folder) ?? [])].some((target) => domains.includes(target)) &&
      !domains.some((domain) => arrows.get(domain)?.has(folder)),
  )
  return (
    `Between the domains the arrows run ${lines.join('; ')}` +
    (alone.length > 0
      ? `; ${alone.map((folder) => `\`${name(folder)}\``).join(', ')} import no other domain.`
      : '.')
  )
}

/** Each routing room with source and the rooms its files import. */
function roomGraph(graph: Map<string, string[]>): Map<string, Set<string>> {
  const rooms = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    const from = routingRoomOf(file)
    if (from === undefined) continue
    const arrows = rooms.get(from) ?? new Set<string>()
    rooms.set(from, arrows)
    for (const target of targets) {
      const to = routingRoomOf(target)
      if (to !== undefined && to !== from) arrows.add(to)
    }
  }
  return rooms
}

/** Routing rooms with source but no description, and descriptions of rooms without source. */
export function undescribedRooms(graph: Map<string, string[]>): {
  undescribed: string[]
  stale: string[]
} {
  const present = new Set(roomGraph(graph).keys())
  return {
    undescribed: [...present].filter((room) => !ROUTING_ROOMS.has(room)).sort(),
    stale: [...ROUTING_ROOMS.keys()].filter((room) => !present.has(room)).sort(),
  }
}

/** The routing engine's rooms in their order, each with what it holds and the rooms it imports. */
export function roomsTable(graph: Map<string, string[]>): string {
  const arrows = roomGraph(graph)
  const name = (room: string) => `\`${room.slice('lib/routing/'.length, -1)}\``
  const rows = ['| room of `lib/routing/` | what lives there | imports |', '| --- | --- | --- |']
  for (const [room, role] of ROUTING_ROOMS) {
    const imports = [...ROUTING_ROOMS.keys()].filter((other) => arrows.get(room)?.has(other))
    rows.push(`| ${name(room)} | ${role} | ${imports.map(name).join(', ') || '—'} |`)
  }
  return rows.join('\n')
}

/** The layout section: the table, the rule, the domains' arrows, and the routing rooms. */
export function layoutSection(graph: Map<string, string[]>): string {
  return [
    LAYOUT_START,
    '',
    layoutTable(graph),
    '',
    wrap(
      'Imports point down this table: a file imports its own layer or one below (`schemas/` only ' +
        'itself and the neutral modules), and folders never import each other both ways; ' +
        '`tests/unit/lib/importGraph.test.ts` fails on an upward import, a cycle between files ' +
        'or a loop between folders, and on an arrow the layers allow but the model forbids (' +
        FORBIDDEN_ARROWS.map(
          ({ from, to, why }) => `\`${from}\` never imports \`${to}\`: ${why}`,
        ).join('; ') +
        '). ' +
        domainArrows(graph),
    ),
    '',
    roomsTable(graph),
    '',
    wrap(
      "The routing engine's rooms, one idea each (`ROUTING_ROOMS` in lib/docs/layers.ts): a room " +
        'imports only the rooms above it in this table, which the import-graph test checks.',
    ),
    '',
    LAYOUT_END,
  ].join('\n')
}

/** Prose wrapped at the house's width (prettier leaves markdown prose as it is). */
function wrap(text: string, width = 100): string {
  const lines: string[] = []
  let line = ''
  // A code span is one word: a line never breaks inside it.
  for (const word of text.match(/(?:`[^`]*`|[^\s`])+/g) ?? []) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  return [...lines, line].join('\n')
}

/** A document with its layout section rewritten (it must hold the markers once). */
export function withLayoutSection(document: string, section: string): string {
  const start = document.indexOf(LAYOUT_START)
  const end = document.indexOf(LAYOUT_END)
  if (start < 0 || end < start || document.indexOf(LAYOUT_START, start + 1) >= 0) {
    throw new Error('the document must hold the layout markers once, in order')
  }
  return document.slice(0, start) + section + document.slice(end + LAYOUT_END.length)
}
