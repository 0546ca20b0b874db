// serverless.yml's local plugin. `npx serverless` runs the CLI under plain Node, whose type
// stripping takes only erasable TypeScript and no extensionless imports: tsx's require hook
// loads the plugin (lib/serverless/deployRules.ts) and what it imports.
require('tsx/cjs/api').register()

module.exports = require('./deployRules.ts')
