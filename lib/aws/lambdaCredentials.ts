// Bundles replace `@aws-sdk/credential-provider-node` with this module (esbuild.config.ts).
// Lambda always hands a function its role's credentials in the environment, so the default
// chain's other providers (SSO, shared files, processes, web identity, instance metadata) and the
// STS and SSO clients they carry, about 135 KB minified, could never run there.
import { fromEnv } from '@aws-sdk/credential-provider-env'

export const defaultProvider: typeof fromEnv = (init) => fromEnv(init)
