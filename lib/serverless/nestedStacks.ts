// Nested stacks (issue 34, DECISIONS §9.5): CloudFormation takes 500 resources a stack, and a
// function costs 8 here (function, version, alias, deployment group, role, log group, alarm,
// invoke permission) and a route 2 more. The template osls compiles is split after everything is
// in it: each function, with every resource that belongs to it alone, moves to the nested stack
// its plan names (its network's, or its area's); what is shared (the API and its stage, the
// table, the queue, the bucket, CodeDeploy's application and role, the stage-wide alarms and the
// dashboard) stays in the root. References across are rewritten: a nested stack takes a root
// resource as a parameter, the root reads a nested resource from an output. Built here rather
// than with serverless-plugin-split-stacks (1.15.0), which asks CloudFormation for the deployed
// stack while packaging (no package without credentials and the network) and moves resources by
// name prefix. Used by deployRules.ts; the upload of the nested templates is uploadNestedStacks.

import type { CloudFormationResource } from './serverlessTypes'

export interface CloudFormationTemplate {
  AWSTemplateFormatVersion?: string
  Description?: string
  Parameters?: Record<string, { Type: string; Description?: string }>
  Resources: Record<string, CloudFormationResource>
  Outputs?: Record<string, { Value: unknown; Description?: string; Export?: unknown }>
  [section: string]: unknown
}

/** CloudFormation's quota of resources in one stack (a nested stack counts one in its parent). */
export const STACK_RESOURCE_LIMIT = 500

export interface NestedStackPlan {
  /** The nested stack of each function, by its Lambda logical id (`GetNonceLambdaFunction`). */
  stackOfFunction: Record<string, string>
  /** Where the templates are read from at deploy time, given a template's file name. */
  templateUrl(fileName: string): unknown
}

export interface SplitTemplate {
  root: CloudFormationTemplate
  /** Each nested template by the logical id of its stack in the root (`EthereumStack`). */
  nested: Record<string, { fileName: string; template: CloudFormationTemplate }>
}

// Shared by every function, so never moved even where only one function refers to them.
const SHARED_TYPES = new Set([
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::Stage',
  'AWS::CloudWatch::Dashboard',
  'AWS::CodeDeploy::Application',
  'AWS::DynamoDB::Table',
  'AWS::Logs::MetricFilter',
  'AWS::S3::Bucket',
  'AWS::S3::BucketPolicy',
  'AWS::SQS::Queue',
])

/** The file a nested template is written to and uploaded as. */
export function nestedTemplateFileName(stackId: string): string {
  return `cloudformation-template-nested-${stackId}.json`
}

/** The logical ids a value refers to (Ref, Fn::GetAtt, ${...} of Fn::Sub). */
function referencesIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencesIn(item, found)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Ref' && typeof inner === 'string') found.add(inner)
      else if (key === 'Fn::GetAtt' && Array.isArray(inner)) found.add(String(inner[0]))
      else if (key === 'Fn::Sub') {
        const text: unknown = Array.isArray(inner) ? inner[0] : inner
        for (const [, name] of String(text).matchAll(/\$\{([A-Za-z0-9]+)(\.[^}]*)?\}/g)) {
          if (name) found.add(name)
        }
        if (Array.isArray(inner)) referencesIn(inner[1], found)
      } else referencesIn(inner, found)
    }
  }
  return found
}

function dependsOnOf(resource: CloudFormationResource): string[] {
  const dependsOn = resource.DependsOn
  if (typeof dependsOn === 'string') return [dependsOn]
  return Array.isArray(dependsOn) ? dependsOn.map(String) : []
}

/**
 * Which stack each resource goes to: a function to its plan's, then, until nothing changes, a
 * resource to the one stack the resources it refers to are in, or, referring to none of the
 * moved ones, to the one stack of the resources that refer to it (a role, a log group). What
 * refers to two stacks, or is shared, stays in the root (undefined).
 */
function assignStacks(
  resources: Record<string, CloudFormationResource>,
  stackOfFunction: Record<string, string>,
): Map<string, string> {
  const ids = Object.keys(resources)
  const refersTo = new Map<string, string[]>()
  const referredBy = new Map<string, string[]>(ids.map((id) => [id, []]))
  for (const id of ids) {
    const resource = resources[id] as CloudFormationResource
    const targets = [...new Set([...referencesIn(resource), ...dependsOnOf(resource)])].filter(
      (target) => target !== id && target in resources,
    )
    refersTo.set(id, targets)
    for (const target of targets) referredBy.get(target)?.push(id)
  }
  const stackOf = new Map<string, string>(Object.entries(stackOfFunction))
  const shared = (id: string) => SHARED_TYPES.has(resources[id]?.Type ?? '')
  const oneStack = (neighbours: string[]) => {
    const stacks = new Set(neighbours.map((id) => stackOf.get(id)))
    return stacks.size === 1 ? [...stacks][0] : undefined
  }
  for (let changed = true; changed;) {
    changed = false
    for (const id of ids) {
      if (stackOf.has(id) || shared(id)) continue
      const moved = (refersTo.get(id) ?? []).filter((target) => stackOf.has(target))
      const unmoved = (refersTo.get(id) ?? []).filter((target) => !stackOf.has(target))
      const referrers = referredBy.get(id) ?? []
      let stack: string | undefined
      if (moved.length > 0) {
        // Refers to two stacks: stays in the root, which may read both.
        if (new Set(moved.map((target) => stackOf.get(target))).size > 1) continue
        stack = oneStack(moved)
      } else if (referrers.length > 0 && referrers.every((referrer) => stackOf.has(referrer))) {
        stack = oneStack(referrers)
      }
      // A resource some root resource refers to, which refers to nothing moved, stays.
      if (stack === undefined || unmoved.some((target) => stackOf.get(target) === stack)) continue
      stackOf.set(id, stack)
      changed = true
    }
  }
  return stackOf
}

/** A CloudFormation parameter or output name for a reference (alphanumeric only). */
const nameOf = (id: string, attribute?: string) =>
  `${id}${attribute ?? ''}`.replace(/[^A-Za-z0-9]/g, '')

/**
 * Rewrites, in place, every reference of `value` to a logical id that `local` does not hold,
 * with what `replace` gives for it (a parameter in a nested stack, an output in the root).
 */
function rewriteReferences(
  value: unknown,
  isLocalResource: (id: string) => boolean,
  replace: (id: string, attribute?: string) => unknown,
): unknown {
  // Pseudo parameters (AWS::Region, AWS::Partition) are every stack's own.
  const isLocal = (id: string) => id.includes('::') || isLocalResource(id)
  if (Array.isArray(value))
    return value.map((item) => rewriteReferences(item, isLocalResource, replace))
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value)
  if (entries.length === 1) {
    const [[key, inner]] = entries as [[string, unknown]]
    if (key === 'Ref' && typeof inner === 'string' && !isLocal(inner)) return replace(inner)
    if (key === 'Fn::GetAtt' && Array.isArray(inner) && !isLocal(String(inner[0]))) {
      return replace(String(inner[0]), inner.slice(1).join('.'))
    }
    if (key === 'Fn::Sub') {
      const text = String(Array.isArray(inner) ? inner[0] : inner)
      const variables = Array.isArray(inner) ? (inner[1] as Record<string, unknown>) : {}
      const outside = [...text.matchAll(/\$\{([A-Za-z0-9]+)(?:\.([^}]*))?\}/g)].filter(
        ([, id]) => id !== undefined && !(id in variables) && !isLocal(id),
      )
      if (outside.length === 0) {
        return Array.isArray(inner)
          ? { 'Fn::Sub': [text, rewriteReferences(variables, isLocalResource, replace)] }
          : value
      }
      // ${Id} or ${Id.Attribute} of another stack: a variable of the same name (dots dropped).
      let rewritten = text
      const more: Record<string, unknown> = { ...variables }
      for (const [whole, id, attribute] of outside) {
        const variable = nameOf(id as string, attribute)
        rewritten = rewritten.replace(whole, `\${${variable}}`)
        more[variable] = replace(id as string, attribute)
      }
      return { 'Fn::Sub': [rewritten, rewriteReferences(more, isLocalResource, replace)] }
    }
  }
  return Object.fromEntries(
    entries.map(([key, inner]) => [key, rewriteReferences(inner, isLocalResource, replace)]),
  )
}

/** What the split builds: the nested templates and, in the root, the stack resource of each. */
interface SplitState {
  stackOf: Map<string, string>
  nested: Record<string, CloudFormationTemplate>
  stackResources: Record<string, CloudFormationResource>
  rootResources: Record<string, CloudFormationResource>
}

function emptySplit(
  template: CloudFormationTemplate,
  stackOf: Map<string, string>,
  stackIds: string[],
): SplitState {
  const nested: Record<string, CloudFormationTemplate> = Object.fromEntries(
    stackIds.map((stackId) => [
      stackId,
      {
        AWSTemplateFormatVersion: '2010-09-09',
        Description: `${stackId}: nested stack of ${template.Description ?? 'the service'}`,
        Parameters: {},
        Resources: {},
        Outputs: {},
      },
    ]),
  )
  const stackResources: Record<string, CloudFormationResource> = Object.fromEntries(
    stackIds.map((stackId) => [
      stackId,
      { Type: 'AWS::CloudFormation::Stack', Properties: { Parameters: {} }, DependsOn: [] },
    ]),
  )
  return { stackOf, nested, stackResources, rootResources: {} }
}

/** An output of a nested stack, for the root (or its parameters) to read. */
function fromNestedOf({ stackOf, nested }: SplitState) {
  return (id: string, attribute?: string) => {
    const stackId = stackOf.get(id) as string
    const output = nameOf(id, attribute)
    const outputs = nested[stackId]?.Outputs as Record<string, { Value: unknown }>
    outputs[output] = {
      Value: attribute ? { 'Fn::GetAtt': [id, attribute] } : { Ref: id },
    }
    return { 'Fn::GetAtt': [stackId, `Outputs.${output}`] }
  }
}

/** A root resource: what it refers to in a nested stack, it reads from that stack. */
function placeInRoot(state: SplitState, id: string, resource: CloudFormationResource): void {
  const { stackOf } = state
  const { DependsOn: _dependsOn, ...rest } = resource
  const rewritten = rewriteReferences(
    rest,
    (target) => !stackOf.has(target),
    fromNestedOf(state),
  ) as CloudFormationResource
  const dependsOn = [
    ...new Set(dependsOnOf(resource).map((target) => stackOf.get(target) ?? target)),
  ]
  state.rootResources[id] =
    dependsOn.length > 0 ? { ...rewritten, DependsOn: dependsOn } : rewritten
}

/** A nested stack's resource: what it refers to in the root arrives as a stack parameter. */
function placeInStack(
  state: SplitState,
  stackId: string,
  id: string,
  resource: CloudFormationResource,
): void {
  const { stackOf } = state
  const stack = state.nested[stackId] as CloudFormationTemplate
  const stackResource = state.stackResources[stackId] as CloudFormationResource
  const parameters = stack.Parameters as Record<string, { Type: string }>
  const passed = stackResource.Properties.Parameters as Record<string, unknown>
  const isLocal = (target: string) => stackOf.get(target) === stackId
  const { DependsOn: _dependsOn, ...rest } = resource
  const rewritten = rewriteReferences(rest, isLocal, (target, attribute) => {
    if (stackOf.has(target)) {
      throw new Error(
        `${id} (stack ${stackId}) refers to ${target} of stack ${stackOf.get(target)}: ` +
          'a nested stack refers only to its own resources and the root',
      )
    }
    const parameter = nameOf(target, attribute)
    parameters[parameter] = { Type: 'String' }
    passed[parameter] = attribute ? { 'Fn::GetAtt': [target, attribute] } : { Ref: target }
    return { Ref: parameter }
  }) as CloudFormationResource
  const local = dependsOnOf(resource).filter(isLocal)
  // Waiting on a root resource is the whole nested stack waiting on it.
  for (const target of dependsOnOf(resource).filter((target) => !isLocal(target))) {
    if (stackOf.has(target)) throw new Error(`${id} waits on ${target} of another nested stack`)
    ;(stackResource.DependsOn as string[]).push(target)
  }
  stack.Resources[id] = local.length > 0 ? { ...rewritten, DependsOn: local } : rewritten
}

/** Each nested stack's file and, in the root, its stack resource pointing at it. */
function closeStacks(state: SplitState, stackIds: string[], plan: NestedStackPlan) {
  const files: SplitTemplate['nested'] = {}
  for (const stackId of stackIds) {
    const stack = state.nested[stackId] as CloudFormationTemplate
    const fileName = nestedTemplateFileName(stackId)
    files[stackId] = { fileName, template: stack }
    const stackResource = state.stackResources[stackId] as CloudFormationResource
    stackResource.Properties.TemplateURL = plan.templateUrl(fileName)
    const dependsOn = [...new Set(stackResource.DependsOn as string[])].sort()
    if (dependsOn.length > 0) stackResource.DependsOn = dependsOn
    else delete stackResource.DependsOn
    state.rootResources[stackId] = stackResource
  }
  return files
}

/**
 * Splits the compiled template into a root and the nested stacks of the plan. The root refers
 * to each nested template by `plan.templateUrl(fileName)`; nothing is written here.
 */
export function splitIntoNestedStacks(
  template: CloudFormationTemplate,
  plan: NestedStackPlan,
): SplitTemplate {
  const resources = template.Resources
  for (const [id, resource] of Object.entries(resources)) {
    if ('Condition' in resource) throw new Error(`${id}: conditions are not split into stacks`)
  }
  const stackOf = assignStacks(resources, plan.stackOfFunction)
  const stackIds = [...new Set(stackOf.values())].sort()
  const state = emptySplit(template, stackOf, stackIds)
  for (const [id, resource] of Object.entries(resources)) {
    const stackId = stackOf.get(id)
    if (stackId === undefined) placeInRoot(state, id, resource)
    else placeInStack(state, stackId, id, resource)
  }
  const outputs = Object.fromEntries(
    Object.entries(template.Outputs ?? {}).map(([name, output]) => [
      name,
      rewriteReferences(output, (target) => !stackOf.has(target), fromNestedOf(state)),
    ]),
  ) as CloudFormationTemplate['Outputs']
  const files = closeStacks(state, stackIds, plan)
  return {
    root: { ...template, Resources: state.rootResources, ...(outputs && { Outputs: outputs }) },
    nested: files,
  }
}
