// The deployment's layout in stacks (docs/operations.md, "Stacks and their limits"): the root
// holds what every function shares, and each function goes with the resources that are its
// alone to a nested stack, its network's (`EthereumStack`) for a route of one network, else its
// area's, the folder of its handler (`functions/auth/` → `AuthStack`). Written beside the root
// template when packaging; uploaded beside it, in the deploy's artifact folder, when deploying.
// Used by deployRules.ts; the split itself is nestedStacks.ts.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type CloudFormationTemplate,
  nestedTemplateFileName,
  splitIntoNestedStacks,
} from './nestedStacks'
import type { Serverless } from './serverlessTypes'

const capitalized = (name: string) => `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`

/** The nested stack of a function: its network's, else its handler folder's. */
export function stackOfFunction(fn: { handler?: string; network?: string }): string {
  if (fn.network) return `${capitalized(fn.network)}Stack`
  const area = /^functions\/([A-Za-z0-9]+)\//.exec(fn.handler ?? '')?.[1]
  if (!area) throw new Error(`handler ${fn.handler ?? '(none)'} is not under functions/<area>/`)
  return `${capitalized(area)}Stack`
}

function serviceFolder(serverless: Serverless): string {
  // osls's own folder: `package --package <dir>` moves all of it to <dir> at the end, and
  // `deploy --package <dir>` copies it back before uploading.
  return join(serverless.serviceDir, '.serverless')
}

/** Splits the compiled template in place into its root and writes the nested templates. */
export function layOutStacks(serverless: Serverless): string[] {
  const { service } = serverless
  const naming = serverless.getProvider('aws').naming
  const compiled = service.provider.compiledCloudFormationTemplate as CloudFormationTemplate
  const folder = service.package.artifactDirectoryName ?? ''
  const bucket = service.provider.deploymentBucket
  const bucketName = typeof bucket === 'object' ? bucket.name : bucket
  const { root, nested } = splitIntoNestedStacks(compiled, {
    stackOfFunction: Object.fromEntries(
      service
        .getAllFunctions()
        .map((name) => [
          naming.getLambdaLogicalId(name),
          stackOfFunction(service.getFunction(name)),
        ]),
    ),
    templateUrl: (fileName) =>
      bucketName
        ? {
            'Fn::Sub': `https://${bucketName}.s3.\${AWS::Region}.\${AWS::URLSuffix}/${folder}/${fileName}`,
          }
        : {
            'Fn::Join': [
              '',
              [
                'https://',
                { 'Fn::GetAtt': ['ServerlessDeploymentBucket', 'RegionalDomainName'] },
                `/${folder}/${fileName}`,
              ],
            ],
          },
  })
  const output = serviceFolder(serverless)
  mkdirSync(output, { recursive: true })
  for (const { fileName, template } of Object.values(nested)) {
    writeFileSync(join(output, fileName), JSON.stringify(template, null, 2))
  }
  // osls writes the root template from this object next.
  compiled.Resources = root.Resources
  if (root.Outputs) compiled.Outputs = root.Outputs
  return Object.keys(nested)
}

/** Uploads the nested templates beside the root one, before CloudFormation is asked to update. */
export async function uploadNestedStacks(serverless: Serverless): Promise<number> {
  const provider = serverless.getProvider('aws')
  const folder = serverless.service.package.artifactDirectoryName ?? ''
  const prefix = nestedTemplateFileName('')
  const files = readdirSync(serviceFolder(serverless)).filter(
    (file) => file.startsWith(prefix.replace(/\.json$/, '')) && file.endsWith('.json'),
  )
  const bucket = await provider.getServerlessDeploymentBucketName()
  await Promise.all(
    files.map((file) =>
      provider.request('S3', 'upload', {
        Bucket: bucket,
        Key: `${folder}/${file}`,
        Body: readFileSync(join(serviceFolder(serverless), file), 'utf8'),
        ContentType: 'application/json',
      }),
    ),
  )
  return files.length
}
