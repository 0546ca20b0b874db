import { describe, expect, it } from 'vitest'
import { clientWindowKey, noncePartition } from '../../lib/db/keys'
import { DEFAULT_NETWORKS } from '../../lib/networks'
import {
  type FunctionState,
  grantedActions,
  type Statement,
  useProdTemplate,
} from '../support/packagedTemplate'
import { tableActionsOfBundle } from '../support/tableActionsOfBundle'

// Least privilege (lib/serverless/functionRoles.ts): one role per function, granting the table
// actions its bundle's code path can call and the SSM parameters it reads.

/** What reading the table's stream takes (the WebSocket fan-out's event source mapping). */
const STREAM_ACTIONS = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
]

const prod = useProdTemplate()

describe('least privilege: one role per function', () => {
  it('gives every function a role of its own and builds no shared one', () => {
    const roleIds = prod
      .ofType('AWS::Lambda::Function')
      .map((fn) => (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0])

    expect(new Set(roleIds).size).toBe(Object.keys(prod.functions).length)
    // Besides them, only CodeDeploy's role for moving the aliases (gradual rollout).
    expect(prod.ofType('AWS::IAM::Role')).toHaveLength(Object.keys(prod.functions).length + 1)
    expect(prod.resources.CodeDeployServiceRole?.Properties.AssumeRolePolicyDocument).toMatchObject(
      {
        Statement: [{ Principal: { Service: ['codedeploy.amazonaws.com'] } }],
      },
    )
    expect(prod.resources).not.toHaveProperty('IamRoleLambdaExecution')
  })

  it('grants each function exactly the table actions its own code path can call', () => {
    const granted: Record<string, string[]> = {}
    const derived: Record<string, string[]> = {}
    const streamReaders: string[] = []
    for (const name of Object.keys(prod.functions)) {
      const actions = grantedActions(prod.statementsOf(name), 'dynamodb:')
      granted[name] = actions.filter((action) => !STREAM_ACTIONS.includes(action))
      derived[name] = tableActionsOfBundle(prod.sourceMapOf(name))
      if (actions.some((action) => STREAM_ACTIONS.includes(action))) streamReaders.push(name)
    }

    expect(granted).toEqual(derived)
    // The table's stream is read by its event source mapping, in the fan-out's role only.
    expect(streamReaders).toEqual(['wsFanOut'])
    // Spot checks of the derivation: the docs and mnemonic functions touch nothing, nothing
    // scans, and only the route whose transaction checks that its networks exist may make a
    // condition check.
    expect(granted.generateMnemonic).toEqual([])
    expect(granted.getOpenApiDocument).toEqual([])
    expect(granted.listNetworks).toEqual(['dynamodb:Query'])
    expect(Object.values(granted).flat()).not.toContain('dynamodb:Scan')
    expect(
      Object.keys(granted).filter((name) => granted[name]?.includes('dynamodb:ConditionCheckItem')),
    ).toEqual(['attachWalletNetworks'])
  })

  it('lets no read route write or delete, beyond the writes that are its purpose', () => {
    const READS = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']
    const writesOf = (actions: string[]) => actions.filter((action) => !READS.includes(action))
    const readRoutes = Object.entries(prod.functions)
      .filter(([, fn]) => fn.events.some((event) => event.httpApi?.method === 'GET'))
      .map(([name]) => name)
    const derived = Object.fromEntries(
      readRoutes.map((name) => [name, writesOf(tableActionsOfBundle(prod.sourceMapOf(name)))]),
    )
    const granted = Object.fromEntries(
      readRoutes.map((name) => [
        name,
        writesOf(grantedActions(prod.statementsOf(name), 'dynamodb:')),
      ]),
    )
    // GET routes that write by design: a nonce is issued (and the caller's budget counted), a
    // quote, the balances and the approval charge their caller's RPC budget, a pending trade is settled from its
    // receipt when looked up, a refresh (GET in the interface) rotates its session and revokes
    // the family on a replay, so only the refreshes delete.
    const rotation = ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']
    const expected = Object.fromEntries(
      readRoutes.map((name) => [
        name,
        {
          getNonce: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
          quoteAltchain: ['dynamodb:UpdateItem'],
          quoteEthereum: ['dynamodb:UpdateItem'],
          refreshWalletSession: rotation,
          refreshAccountSession: rotation,
          getTradeByHash: ['dynamodb:UpdateItem'],
          getTradeById: ['dynamodb:UpdateItem'],
          getWalletBalances: ['dynamodb:UpdateItem'],
          getApproval: ['dynamodb:UpdateItem'],
        }[name] ?? [],
      ]),
    )

    expect(readRoutes).toHaveLength(21)
    expect(derived).toEqual(expected)
    expect(granted).toEqual(expected)
  })

  it('scopes table grants to the table and its indexes', () => {
    for (const name of Object.keys(prod.functions)) {
      for (const statement of prod.statementsOf(name)) {
        if (!statement.Action.some((action) => action.startsWith('dynamodb:'))) continue
        if (statement.Action.every((action) => STREAM_ACTIONS.includes(action))) {
          expect(statement.Resource).toEqual({ 'Fn::GetAtt': ['Table', 'StreamArn'] })
          continue
        }
        expect(statement.Resource).toEqual([
          { 'Fn::GetAtt': ['Table', 'Arn'] },
          { 'Fn::Join': ['/', [{ 'Fn::GetAtt': ['Table', 'Arn'] }, 'index', '*']] },
        ])
      }
    }
  })

  it("confines the quote, prepare, balance and nonce roles' writes to their own key prefixes (dynamodb:LeadingKeys)", () => {
    const WRITES = ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']
    const RPC_BUDGET = ['CLIENT#rpc#*']
    const confined: Record<string, string[]> = {
      getNonce: ['NONCE#*', 'CLIENT#nonce#*'],
      getWalletBalances: RPC_BUDGET,
      getApproval: RPC_BUDGET,
      ...Object.fromEntries(
        Object.keys(prod.functions)
          .filter((name) => /^(quote|prepare)/.test(name))
          .map((name) => [name, RPC_BUDGET]),
      ),
    }
    // Each network's quote and prepares, the balances, the approval and the nonce.
    expect(Object.keys(confined)).toHaveLength(3 + 4 * DEFAULT_NETWORKS.length - 1)

    for (const [name, prefixes] of Object.entries(confined)) {
      const statements = prod
        .statementsOf(name)
        .filter((statement) => statement.Action.some((action) => WRITES.includes(action)))
      // Every write the role may make sits under the condition, with exactly these prefixes.
      expect({ name, statements: statements.map((s) => s.Condition) }).toEqual({
        name,
        statements: [{ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes } }],
      })
      expect(statements[0]?.Action.every((action) => WRITES.includes(action))).toBe(true)
    }
    // The prefixes are the keys the code writes (lib/db/keys.ts): its client windows, its nonces.
    expect(clientWindowKey('rpc', '192.0.2.1', 0).pk).toMatch(/^CLIENT#rpc#/)
    expect(clientWindowKey('nonce', '192.0.2.1', 0).pk).toMatch(/^CLIENT#nonce#/)
    expect(noncePartition('0x0000000000000000000000000000000000000001')).toMatch(/^NONCE#/)
  })

  it('lets only the functions that read the JWT secret or an RPC URL read SSM, each its own', () => {
    for (const name of Object.keys(prod.functions)) {
      const sources = prod.sourceMapOf(name).sources
      const readable = ofParameters(prod.statementsOf(name))
      const expected = [
        ...(sources.some((source) => source.endsWith('lib/auth/jwtSecret.ts'))
          ? ['/wallet-backend/prod/jwt-secret']
          : []),
      ]
      if (sources.some((source) => source.endsWith('lib/chain/rpcUrls.ts'))) {
        // A route of one network reads that network's URLs; loginWallet checks contract
        // wallets on ethereum; every other chain function serves each network the stage serves.
        const network = (prod.functions[name] as FunctionState & { network?: string }).network
        const reads = network ? [network] : name === 'loginWallet' ? ['ethereum'] : DEFAULT_NETWORKS
        expected.push(...reads.map((read) => `/wallet-backend/prod/${read}-rpc-url`))
      }
      expect({ name, readable }).toEqual({ name, readable: expected.sort() })
      expect(grantedActions(prod.statementsOf(name), 'ssm:')).toEqual(
        expected.length > 0 ? ['ssm:GetParameter'] : [],
      )
      expect(grantedActions(prod.statementsOf(name), 'kms:')).toEqual([])
    }
  })
})

function ofParameters(statements: Statement[]): string[] {
  return statements
    .filter((statement) => statement.Action.includes('ssm:GetParameter'))
    .flatMap((statement) => statement.Resource as Array<{ 'Fn::Sub': string }>)
    .map((resource) => resource['Fn::Sub'].replace(/^.*:parameter/, ''))
    .sort()
}
