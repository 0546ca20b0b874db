// The stage guard (docs/operations.md, Deploying): `local` is the `npm start` stack and is never
// packaged or deployed; any other stage needs every setting of custom.requiredSettings. Runs
// before packaging and before either kind of deploy, with no AWS call. Used by deployRules.ts.
import type { Serverless } from './serverlessTypes'

/** Throws the framework's error naming what is wrong; returns when the stage may be built. */
export function refuseUndeployableStage(serverless: Serverless): void {
  const { Error: ServerlessError } = serverless.classes
  const stage = serverless.getProvider('aws').getStage()
  if (stage === 'local') {
    throw new ServerlessError(
      'Stage "local" runs only under `npm start` (DynamoDB Local, the devnets) and cannot be ' +
        'packaged or deployed: pass --stage <name>, e.g. --stage prod.',
    )
  }
  const required = serverless.service.custom?.requiredSettings ?? {}
  const missing = Object.entries(required)
    .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
    .map(([name]) => name)
  if (missing.length > 0) {
    throw new ServerlessError(
      `Stage "${stage}" is missing ${missing.join(', ')}: set ${
        missing.length === 1 ? 'it' : 'each'
      } in the environment before packaging or deploying (see docs/operations.md, Deploying).`,
    )
  }
}
