import '../../support/env'
import { getBlockNumber, getChainId } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onChain } from '../../../lib/chain/chainError'
import { createChainClient } from '../../../lib/chain/clients'
import { type ChainConfig, loadChainConfig } from '../../../lib/config'
import { ChainUnavailable } from '../../../lib/errors'
import { findFreePort } from '../../../lib/local/findFreePort'
import { SSM_TEST_CREDENTIALS, type SsmStandIn, startSsmStandIn } from '../../support/ssmStandIn'

// Deployed stages name an SSM SecureString instead of carrying RPC URLs in the environment.
const ETHEREUM_PARAMETER = '/wallet-backend/test/ethereum-rpc-url'
const BROKEN_PARAMETER = '/wallet-backend/test/altchain-rpc-url'

describe('RPC URLs from an SSM parameter', () => {
  let ssm: SsmStandIn
  let deadUrl: string
  const savedEnv = { ...process.env }

  beforeAll(async () => {
    deadUrl = `http://127.0.0.1:${await findFreePort()}/dead-key-123`
    ssm = await startSsmStandIn(
      {
        // A dead provider first: the list fails over in order, as on `local`.
        [ETHEREUM_PARAMETER]: `${deadUrl}, ${loadChainConfig('ethereum').rpcUrl}`,
        [BROKEN_PARAMETER]: 'not-a-url-secret-key-456',
      },
      String(process.env.AWS_REGION),
    )
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: SSM_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: SSM_TEST_CREDENTIALS.secretAccessKey,
      SSM_ENDPOINT: ssm.endpoint,
    })
    delete process.env.AWS_SESSION_TOKEN
  })

  afterAll(async () => {
    process.env = savedEnv
    await ssm.close()
  })

  const fromParameter = (config: ChainConfig, parameter: string): ChainConfig => ({
    ...config,
    rpcUrl: '',
    rpcUrls: [],
    rpcUrlParameter: parameter,
  })

  it('reads the list once per container, at the first call, and fails over along it', async () => {
    const config = fromParameter(loadChainConfig('ethereum'), ETHEREUM_PARAMETER)
    const client = createChainClient(config)
    expect(ssm.requests).toHaveLength(0)

    const chainId = await getChainId(client)
    await getBlockNumber(client)
    // A second client of the same network (another module's) shares the container's read.
    await getBlockNumber(createChainClient(config))

    expect(chainId).toBe(config.chainId)
    expect(ssm.requests).toEqual([
      {
        target: 'AmazonSSM.GetParameter',
        body: { Name: ETHEREUM_PARAMETER, WithDecryption: true },
        signatureValid: true,
      },
    ])
  })

  it('answers 502 without the value when the parameter holds no URL, and reads it again next time', async () => {
    const client = createChainClient(fromParameter(loadChainConfig('altchain'), BROKEN_PARAMETER))
    const before = ssm.requests.length

    const failures = [
      await onChain('altchain', () => getBlockNumber(client)).catch((error: unknown) => error),
      await onChain('altchain', () => getBlockNumber(client)).catch((error: unknown) => error),
    ]

    for (const failure of failures) {
      expect(failure).toBeInstanceOf(ChainUnavailable)
      expect(failure).toMatchObject({ status: 502 })
      expect(JSON.stringify(failure) + String(failure)).not.toContain('secret-key-456')
    }
    expect(ssm.requests.length - before).toBe(2)
  })
})
