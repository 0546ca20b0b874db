// serverless-esbuild's config (serverless.yml custom.esbuild.config) is esbuild.config.ts,
// loaded by tsx: `npx serverless` runs the CLI under plain Node (see lib/serverless/plugin.cjs).
require('tsx/cjs/api').register()

module.exports = require('./esbuild.config.ts')
