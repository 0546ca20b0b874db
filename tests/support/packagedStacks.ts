import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// A packaged deployment as CloudFormation will read it: the root template and the nested
// templates its AWS::CloudFormation::Stack resources name (lib/serverless/stackLayout.ts). For
// the assertions about the whole deployment, `flattened` puts every resource back in one map with
// each reference across stacks resolved to the resource it reaches (a nested stack's parameter to
// what the root passes it, the root's read of an output to that output's value); resolving fails
// loudly on any reference that reaches nothing.

export interface Resource {
  Type: string
  Properties: Record<string, unknown>
  DependsOn?: string[]
  [attribute: string]: unknown
}

export interface Template {
  Parameters?: Record<string, unknown>
  Resources: Record<string, Resource>
  Outputs?: Record<string, { Value: unknown }>
}

export interface PackagedStacks {
  root: Template
  /** Each nested template by the logical id of its stack in the root. */
  nested: Record<string, Template>
  /** Every resource of every stack, references across stacks resolved. */
  flattened: Record<string, Resource>
}

const PSEUDO = /^AWS::/

function substitute(
  value: unknown,
  resolve: (ref: { id: string; attribute?: string }) => unknown,
): unknown {
  if (Array.isArray(value)) return value.map((item) => substitute(item, resolve))
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value)
  if (entries.length === 1) {
    const [[key, inner]] = entries as [[string, unknown]]
    if (key === 'Ref' && typeof inner === 'string') {
      const resolved = resolve({ id: inner })
      if (resolved !== undefined) return resolved
    }
    if (key === 'Fn::GetAtt' && Array.isArray(inner)) {
      const resolved = resolve({ id: String(inner[0]), attribute: String(inner[1]) })
      if (resolved !== undefined) return resolved
    }
  }
  return Object.fromEntries(entries.map(([key, inner]) => [key, substitute(inner, resolve)]))
}

/** Every `Ref` and `Fn::GetAtt` target of a value. */
export function referencedIds(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) referencedIds(item, found)
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Ref' && typeof inner === 'string') found.push(inner)
      else if (key === 'Fn::GetAtt' && Array.isArray(inner)) found.push(String(inner[0]))
      else referencedIds(inner, found)
    }
  }
  return found
}

export function readPackagedStacks(packageDir: string): PackagedStacks {
  const read = (file: string) =>
    JSON.parse(readFileSync(join(packageDir, file), 'utf8')) as Template
  const root = read('cloudformation-template-update-stack.json')
  const nested: Record<string, Template> = {}
  for (const [id, resource] of Object.entries(root.Resources)) {
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue
    const url = JSON.stringify(resource.Properties.TemplateURL)
    const file = /(cloudformation-template-nested-[A-Za-z0-9]+\.json)/.exec(url)?.[1]
    if (!file) throw new Error(`${id} names no nested template: ${url}`)
    nested[id] = read(file)
  }
  const outputOf = (stackId: string, output: string) => {
    const value = nested[stackId]?.Outputs?.[output]?.Value
    if (value === undefined) throw new Error(`the root reads ${stackId}'s missing output ${output}`)
    return value
  }
  const flattened: Record<string, Resource> = {}
  for (const [id, resource] of Object.entries(root.Resources)) {
    if (resource.Type === 'AWS::CloudFormation::Stack') continue
    flattened[id] = substitute(resource, ({ id: target, attribute }) =>
      target in nested && attribute?.startsWith('Outputs.')
        ? outputOf(target, attribute.slice('Outputs.'.length))
        : undefined,
    ) as Resource
  }
  for (const [stackId, template] of Object.entries(nested)) {
    const passed = root.Resources[stackId]?.Properties.Parameters as Record<string, unknown>
    for (const [id, resource] of Object.entries(template.Resources)) {
      if (id in flattened) throw new Error(`${id} is in two stacks`)
      flattened[id] = substitute(resource, ({ id: target, attribute }) => {
        if (attribute !== undefined || PSEUDO.test(target) || target in template.Resources) {
          return undefined
        }
        if (!(target in (template.Parameters ?? {})) || !(target in passed)) {
          throw new Error(`${id} of ${stackId} refers to ${target}, neither its own nor passed`)
        }
        return passed[target]
      }) as Resource
    }
  }
  // Every reference now reaches a resource of the deployment or a pseudo parameter.
  for (const [id, resource] of Object.entries(flattened)) {
    for (const target of referencedIds(resource)) {
      if (!(target in flattened) && !PSEUDO.test(target)) {
        throw new Error(`${id} refers to ${target}, which no stack holds`)
      }
    }
  }
  return { root, nested, flattened }
}

/** Resources in each stack of the deployment, the root's by 'root'. */
export function resourceCounts(stacks: PackagedStacks): Record<string, number> {
  return {
    root: Object.keys(stacks.root.Resources).length,
    ...Object.fromEntries(
      Object.entries(stacks.nested).map(([id, template]) => [
        id,
        Object.keys(template.Resources).length,
      ]),
    ),
  }
}
