// A local Serverless Framework plugin (serverless.yml `plugins`), loaded through plugin.cjs
// (tsx's require hook) like esbuild.config.ts. It wires the deploy rules into the framework's
// steps; each rule is a module of its own: the served networks (servedNetworks.ts), the stage
// guard (stageGuard.ts), one role per function (functionRoles.ts), the browser origins
// (allowedOrigins.ts), the alarms (alarms.ts), the dashboard (dashboard.ts), the gradual rollout
// (gradualRollout.ts), the nested stacks (stackLayout.ts), lean zips (sourceMaps.ts) and the
// one-pass bundling (bundleInOnePass.ts).

import { compileAlarms, failureAlarmLogicalId } from './alarms'
import { applyAllowedOrigins } from './allowedOrigins'
import { bundleInOnePass } from './bundleInOnePass'
import { dashboard } from './dashboard'
import { ACCESS_PROPERTY_SCHEMA, assignRoles, compileRoles } from './functionRoles'
import { NETWORK_PROPERTY_SCHEMA, PER_NETWORK_PROPERTY_SCHEMA } from './networkProperty'
import { checkDeploymentConfig, compileGradualRollout } from './gradualRollout'
import type { Serverless } from './serverlessTypes'
import { keepServedNetworks } from './servedNetworks'
import { collectSourceMaps, leaveSourceMapsOutOfZips } from './sourceMaps'
import { layOutStacks, uploadNestedStacks } from './stackLayout'
import { refuseUndeployableStage } from './stageGuard'

class DeployRules {
  readonly hooks: Record<string, () => unknown>

  constructor(private readonly serverless: Serverless) {
    serverless.configSchemaHandler.defineFunctionProperties('aws', {
      properties: {
        access: ACCESS_PROPERTY_SCHEMA,
        network: NETWORK_PROPERTY_SCHEMA,
        perNetwork: PER_NETWORK_PROPERTY_SCHEMA,
      },
    })
    const guard = () => refuseUndeployableStage(serverless)
    this.hooks = {
      // Every command (package, deploy, offline) sees the served networks' functions only, each
      // network operation's block made one function per network.
      initialize: () => keepServedNetworks(serverless),
      'before:package:initialize': guard,
      // `deploy --package <dir>` skips packaging; `deploy function` never packages the service.
      'before:deploy:deploy': guard,
      'before:deploy:function:initialize': guard,
      'before:package:setupProviderConfiguration': () => assignRoles(serverless),
      'before:package:compileFunctions': () => compileRoles(serverless),
      'after:package:compileEvents': () => this.compileOperations(),
      // Lean zips: no source map inside, the maps a separate artifact (lib/serverless/sourceMaps.ts);
      // every function bundled in one esbuild pass (lib/serverless/bundleInOnePass.ts).
      'after:package:initialize': () => this.prepareBundling(),
      'after:deploy:function:initialize': () => this.prepareBundling(),
      // After the required settings are known to be there (before:package:initialize).
      'package:initialize': () => this.checkOperationsSettings(),
      'after:package:createDeploymentArtifacts': () => {
        collectSourceMaps(serverless)
      },
      // Once every resource is in the template (serverless.yml's own merged in), before osls
      // writes it: the root and its nested stacks (lib/serverless/stackLayout.ts).
      'after:aws:package:finalize:mergeCustomProviderResources': () => layOutStacks(serverless),
      // Beside the root template, before CloudFormation is asked for the update.
      'after:aws:deploy:deploy:uploadArtifacts': () => uploadNestedStacks(serverless),
    }
  }

  private prepareBundling(): void {
    leaveSourceMapsOutOfZips(this.serverless)
    bundleInOnePass(this.serverless)
  }

  private get stage(): string {
    return this.serverless.getProvider('aws').getStage()
  }

  /** Alarms to the stage's SNS topic, the 502 metric, a dashboard, and the gradual rollout. */
  private compileOperations(): void {
    const { service } = this.serverless
    const naming = this.serverless.getProvider('aws').naming
    const resources = service.provider.compiledCloudFormationTemplate.Resources
    const operations = service.custom?.operations ?? {}
    const functions = service.getAllFunctions().map((name) => ({
      name,
      normalizedName: naming.getNormalizedFunctionName(name),
      functionLogicalId: naming.getLambdaLogicalId(name),
    }))
    const deployedName = (name: string) => service.getFunction(name).name
    Object.assign(
      resources,
      compileAlarms({
        prefix: `${service.service}-${this.stage}`,
        namespace: `${service.service}/${this.stage}`,
        functions,
        operations,
      }),
    )
    resources.Dashboard = dashboard({
      name: `${service.service}-${this.stage}`,
      region: service.provider.region,
      namespace: `${service.service}/${this.stage}`,
      functionNames: service.getAllFunctions().map(deployedName),
      durationAlarmedNames: Object.values(operations.durationAlarms ?? {}).flatMap((group) =>
        group.functions.map(deployedName),
      ),
    })
    compileGradualRollout(
      resources,
      functions.map((fn) => ({ ...fn, alarmLogicalId: failureAlarmLogicalId(fn.normalizedName) })),
      String(operations.rollout),
    )
  }

  /**
   * The deploy settings of operations, checked like the required ones before anything is built:
   * the rollout, and the browser origins (ALLOWED_ORIGINS, made the stage's CORS origins).
   */
  private checkOperationsSettings(): void {
    const { provider, custom } = this.serverless.service
    const fail = (problem: string) =>
      new this.serverless.classes.Error(
        `Stage "${this.stage}": ${problem} (see docs/operations.md, Deploying).`,
      )
    const rolloutProblem = checkDeploymentConfig(custom?.operations?.rollout)
    if (rolloutProblem) throw fail(rolloutProblem)
    const cors = applyAllowedOrigins(provider.httpApi, custom?.operations?.allowedOrigins)
    if ('problem' in cors) throw fail(cors.problem)
    provider.httpApi = cors.httpApi
  }
}

export = DeployRules
