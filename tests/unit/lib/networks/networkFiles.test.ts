import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NETWORK_ENTRIES, NETWORK_TABLE } from '../../../../lib/networks'
import {
  handlerFiles,
  looksLikeNetworkHandlerFile,
  serverlessBlocks,
  withServerlessBlocks,
} from '../../../../lib/networks/networkFiles'
import { functionName, operationPath, operationsOf } from '../../../../lib/networks/operations'
import { declaredFunctions } from '../../../../lib/openapi/declaredFunctions'

// `npm run networks` writes each network's handler and doc files and the network blocks of
// serverless.yml from the network table (DECISIONS §9.5): what is committed must be what it
// writes, so a network is its table entry and nothing written by hand.

const read = (path: string) => readFileSync(path, 'utf8')
const FIX = 'stale: run `npm run networks`'

describe('the files the network table gives', () => {
  it('are committed as `npm run networks` writes them', () => {
    const files = handlerFiles()
    const stale = Object.entries(files)
      .filter(([path, content]) => {
        try {
          return read(path) !== content
        } catch {
          return true
        }
      })
      .map(([path]) => path)

    expect(stale, FIX).toEqual([])
    expect(read('serverless.yml') === withServerlessBlocks(read('serverless.yml')), FIX).toBe(true)
  })

  it('leave no handler file of a network the table does not hold, nor of a route it lacks', () => {
    const files = handlerFiles()
    const shaped = readdirSync('functions', { recursive: true, encoding: 'utf8' })
      .map((file) => join('functions', file))
      .filter(looksLikeNetworkHandlerFile)

    expect(shaped.filter((path) => !(path in files))).toEqual([])
    // The check sees the files it is about: every generated one looks like one.
    expect(Object.keys(files).every(looksLikeNetworkHandlerFile)).toBe(true)
    expect(looksLikeNetworkHandlerFile('functions/swap/listSwapTokens.ts')).toBe(false)
  })

  it("declare every network's routes under the interface's paths, each in its network's stack", () => {
    const declared = declaredFunctions()
    for (const network of Object.keys(NETWORK_TABLE) as Array<keyof typeof NETWORK_TABLE>) {
      const operations = operationsOf(NETWORK_ENTRIES[network].routes)
      const ofNetwork = declared.filter((fn) => fn.network === network)

      expect(ofNetwork.map((fn) => fn.name).sort()).toEqual(
        operations.map((operation) => functionName(operation.name, network)).sort(),
      )
      for (const operation of operations) {
        const fn = ofNetwork.find(
          (candidate) => candidate.name === functionName(operation.name, network),
        )
        expect(fn?.route).toEqual({
          method: operation.method,
          path: operationPath(operation.name, network),
        })
        expect(fn?.entry).toBe(`functions/${operation.area}/${fn?.name}.ts`)
        expect(fn?.access.parameters).toContain(`${network}RpcUrl`)
      }
    }
    // The interface's own paths (DECISIONS §4): ethereum has no native route, altchain has one.
    expect(operationPath('quote', 'ethereum')).toBe('/api/v1/swap/quote/ethereum')
    expect(declared.some((fn) => fn.route?.path === '/api/v1/swap/native/altchain/{key}')).toBe(
      true,
    )
    expect(declared.some((fn) => fn.route?.path.startsWith('/api/v1/swap/native/ethereum'))).toBe(
      false,
    )
  })

  it('fails loudly on a serverless.yml missing a generated block, or naming an unknown one', () => {
    const yaml = read('serverless.yml')
    const withoutFunctions = yaml.replace(
      / *# <networks: functions>[^]*?# <\/networks: functions>\n/,
      '',
    )
    const unclosed = yaml.replace('# </networks: environment>', '')
    const unknown = `${yaml}\n  # <networks: nowhere>\n  # </networks: nowhere>\n`

    expect(withoutFunctions).not.toBe(yaml)
    expect(() => withServerlessBlocks(withoutFunctions)).toThrow(
      /lacks the generated blocks: functions/,
    )
    expect(() => withServerlessBlocks(unclosed)).toThrow(/"environment" has no closing marker/)
    expect(() => withServerlessBlocks(unknown)).toThrow(/unknown generated block "nowhere"/)
  })

  it("gives each network its settings from its entry: the deployed stage's values, the devnet's", () => {
    const { 'deployed params': deployed, 'local params': local, environment } = serverlessBlocks()
    for (const [network, entry] of Object.entries(NETWORK_ENTRIES)) {
      const prefix = network.toUpperCase()
      expect(deployed).toEqual(
        expect.arrayContaining([
          `${network}ChainId: '${entry.deployed.chainId}'`,
          `${network}WrappedNative: '${entry.deployed.wrappedNative}'`,
          `${network}V3PoolInitCodeHash: '${entry.deployed.v3.poolInitCodeHash}'`,
          `${network}Confirmations: '${entry.deployed.confirmations}'`,
          `${network}ConnectorTokens: '${entry.deployed.connectorTokens.join(',')}'`,
        ]),
      )
      expect(local).toEqual(
        expect.arrayContaining([
          `${network}ChainId: \${env:${prefix}_CHAIN_ID, '${entry.devnet.chainId}'}`,
          `${network}RpcUrl: \${env:${prefix}_RPC_URL, 'http://127.0.0.1:${entry.devnet.port}'}`,
        ]),
      )
      expect(environment).toEqual(
        expect.arrayContaining([
          `${prefix}_CHAIN_ID: \${param:${network}ChainId}`,
          `${prefix}_RPC_URL_PARAMETER: \${param:${network}RpcUrlParameter}`,
        ]),
      )
    }
  })
})
