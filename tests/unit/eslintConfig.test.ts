import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'

// The chokepoints of eslint.config.mjs (issue 35): chain broadcasts only in
// lib/send/sendSigned.ts, AWS SDK clients only in lib/db/client.ts and lib/aws/. Each fixture is
// linted by the repository's own config as if it were the named file (it need not exist; the
// type-aware rules are off, since the type checker knows only files on disk).

const eslint = new ESLint({ overrideConfig: tseslint.configs.disableTypeChecked })

const CHOKEPOINT_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax'])

/** The chokepoint rules' messages for `code` linted as `filePath`. */
async function refusals(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? [])
    .filter((message) => message.ruleId !== null && CHOKEPOINT_RULES.has(message.ruleId))
    .map((message) => message.message)
}

const BROADCAST = /Broadcasts leave only through lib\/send\/sendSigned\.ts/
const AWS = /AWS SDK clients live in lib\/db\/client\.ts .* and lib\/aws\/ only/

const FIXTURES = {
  importedBroadcast: `import { sendRawTransaction } from 'viem/actions'
export const send = sendRawTransaction
`,
  walletClient: `import { createWalletClient, http } from 'viem'
export const wallet = createWalletClient({ transport: http() })
`,
  memberBroadcast: `export async function pay(client: { sendTransaction(x: object): Promise<string> }) {
  return client.sendTransaction({ to: '0x0000000000000000000000000000000000000001' })
}
`,
  rawJsonRpc: `export async function send(request: (call: object) => Promise<unknown>, raw: string) {
  return request({ method: 'eth_sendRawTransaction', params: [raw] })
}
`,
  sdkClient: `import { SNSClient, PublishCommand } from '@aws-sdk/client-sns'
export const publish = () => new SNSClient({}).send(new PublishCommand({ Message: 'x' }))
`,
  dynamicSdk: `export async function publish() {
  const { SNSClient } = await import('@aws-sdk/client-sns')
  return SNSClient
}
`,
  tableClient: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
export const table = DynamoDBDocumentClient.from(new DynamoDBClient({}))
`,
  command: `import { PutCommand } from '@aws-sdk/lib-dynamodb'
export const put = new PutCommand({ TableName: 't', Item: {} })
`,
  signer: `import { SignatureV4 } from '@smithy/signature-v4'
export const signer = SignatureV4
`,
}

describe('the chokepoints of eslint.config.mjs', () => {
  it.each([
    [
      'a broadcast action imported',
      FIXTURES.importedBroadcast,
      'lib/markets/broadcast.ts',
      BROADCAST,
    ],
    ['a wallet client', FIXTURES.walletClient, 'lib/swap/walletClient.ts', BROADCAST],
    [
      'a broadcast called on a client',
      FIXTURES.memberBroadcast,
      'functions/swap/pay.ts',
      BROADCAST,
    ],
    ['a raw eth_sendRawTransaction', FIXTURES.rawJsonRpc, 'lib/trades/webhook.ts', BROADCAST],
    ['an AWS SDK client in a domain', FIXTURES.sdkClient, 'lib/markets/alerts.ts', AWS],
    ['an AWS SDK client imported on demand', FIXTURES.dynamicSdk, 'lib/auth/notify.ts', AWS],
    ['a second table client in a repository', FIXTURES.tableClient, 'lib/db/trade.ts', AWS],
    ['a table command outside lib/db', FIXTURES.command, 'lib/auth/directWrite.ts', AWS],
    ['an AWS request signer outside lib/aws', FIXTURES.signer, 'lib/markets/ssmWrite.ts', AWS],
    ['an AWS SDK client in a handler', FIXTURES.sdkClient, 'functions/swap/notify.ts', AWS],
    ['a broadcast in a schema', FIXTURES.importedBroadcast, 'schemas/send.ts', BROADCAST],
  ])('refuses %s', async (_case, code, filePath, message) => {
    const found = await refusals(code, filePath)

    expect(found.length).toBeGreaterThan(0)
    for (const text of found) expect(text).toMatch(message)
  })

  it.each([
    ['a broadcast in lib/send/sendSigned.ts', FIXTURES.importedBroadcast, 'lib/send/sendSigned.ts'],
    ['a raw broadcast in lib/send/sendSigned.ts', FIXTURES.rawJsonRpc, 'lib/send/sendSigned.ts'],
    ['the table client in lib/db/client.ts', FIXTURES.tableClient, 'lib/db/client.ts'],
    ['an AWS SDK client in lib/aws/', FIXTURES.sdkClient, 'lib/aws/publish.ts'],
    ['a request signer in lib/aws/', FIXTURES.signer, 'lib/aws/secureWrite.ts'],
    ['a table command in a repository', FIXTURES.command, 'lib/db/account.ts'],
    ['a wallet client in the local stack', FIXTURES.walletClient, 'lib/local/deployDex.ts'],
    ['a wallet client in a test', FIXTURES.walletClient, 'tests/support/devnetAccounts.ts'],
  ])('allows %s', async (_case, code, filePath) => {
    expect(await refusals(code, filePath)).toEqual([])
  })

  it('keeps AWS clients out of sendSigned.ts and broadcasts out of lib/db/client.ts and lib/aws/', async () => {
    expect(await refusals(FIXTURES.sdkClient, 'lib/send/sendSigned.ts')).not.toEqual([])
    expect(await refusals(FIXTURES.importedBroadcast, 'lib/db/client.ts')).not.toEqual([])
    expect(await refusals(FIXTURES.memberBroadcast, 'lib/aws/secureParameter.ts')).not.toEqual([])
  })
})

describe('the size limits of eslint.config.mjs (issue 42: rooms of one idea)', () => {
  const SIZE_RULES = new Set(['max-lines', 'max-lines-per-function'])
  const sizeRefusals = async (code: string, filePath: string, linter = eslint) => {
    const [result] = await linter.lintText(code, { filePath })
    return (result?.messages ?? [])
      .filter((message) => message.ruleId !== null && SIZE_RULES.has(message.ruleId))
      .map((message) => message.ruleId)
  }
  const functionOf = (lines: number) =>
    `export function long(): number {\n  let n = 0\n${'  n += 1\n'.repeat(lines - 4)}  return n\n}\n`
  const fileOf = (lines: number) => `export const n = 0\n${'// a line\n'.repeat(lines - 1)}`

  it('refuses a function over 80 lines and a source file over 400, comments counted', async () => {
    expect(await sizeRefusals(functionOf(81), 'lib/routing/long.ts')).toEqual([
      'max-lines-per-function',
    ])
    expect(await sizeRefusals(fileOf(401), 'lib/routing/long.ts')).toEqual(['max-lines'])
  })

  it('allows 80 and 400, and the generated client types', async () => {
    expect(await sizeRefusals(functionOf(80), 'lib/routing/long.ts')).toEqual([])
    expect(await sizeRefusals(fileOf(400), 'schemas/long.ts')).toEqual([])
    expect(await sizeRefusals(fileOf(401), 'client/api.d.ts')).toEqual([])
  })
})
