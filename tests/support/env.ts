import { inject } from 'vitest'

// Test files run in workers; this gives each the environment of the shared local stack before
// any module reads its configuration. Import it first.
Object.assign(process.env, inject('stackEnv'), { LOG_LEVEL: 'SILENT' })
