import '../../../support/env'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSecureParameter, ParameterUnavailable } from '../../../../lib/aws/secureParameter'
import { SSM_TEST_CREDENTIALS, type SsmStandIn, startSsmStandIn } from '../../../support/ssmStandIn'

const SECRET = 'a-jwt-secret-of-at-least-32-characters'

describe('getSecureParameter', () => {
  let ssm: SsmStandIn
  const savedEnv = { ...process.env }

  beforeAll(async () => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: SSM_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: SSM_TEST_CREDENTIALS.secretAccessKey,
    })
    delete process.env.AWS_SESSION_TOKEN
    delete process.env.AWS_PROFILE
    ssm = await startSsmStandIn({ '/wallet-backend/test/jwt-secret': SECRET }, 'eu-west-1')
  })

  afterAll(async () => {
    process.env = savedEnv
    await ssm.close()
  })

  it('reads a SecureString decrypted, in one request signed for SSM', async () => {
    const value = await getSecureParameter('/wallet-backend/test/jwt-secret', {
      region: 'eu-west-1',
      endpoint: ssm.endpoint,
    })

    expect(value).toBe(SECRET)
    expect(ssm.requests).toEqual([
      {
        target: 'AmazonSSM.GetParameter',
        body: { Name: '/wallet-backend/test/jwt-secret', WithDecryption: true },
        signatureValid: true,
      },
    ])
  })

  it('fails with the error type only when the parameter is missing', async () => {
    const failure = await getSecureParameter('/wallet-backend/test/missing', {
      region: 'eu-west-1',
      endpoint: ssm.endpoint,
    }).catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(ParameterUnavailable)
    expect((failure as Error).message).toBe('SSM GetParameter failed: 400 ParameterNotFound')
  })

  it('fails, rather than waits on, an endpoint that takes the request and never answers', async () => {
    const silent = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    try {
      const failure = await getSecureParameter('/wallet-backend/test/jwt-secret', {
        region: 'eu-west-1',
        endpoint: `http://127.0.0.1:${port}/`,
      }).catch((error: unknown) => error)

      expect(failure).toBeInstanceOf(Error)
      expect((failure as Error).message).toBe('SSM did not answer in time')
    } finally {
      silent.close()
    }
  })
})
