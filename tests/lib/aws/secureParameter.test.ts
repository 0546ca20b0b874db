import '../../support/env'
import { Hash } from '@smithy/core/serde'
import { SignatureV4 } from '@smithy/signature-v4'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSecureParameter, ParameterUnavailable } from '../../../lib/aws/secureParameter'

// No SSM engine runs locally, so a stand-in checks what a real endpoint checks: the SigV4
// signature over the request, for service `ssm`, with the caller's credentials.
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'test-secret-access-key' }
const SECRET = 'a-jwt-secret-of-at-least-32-characters'

interface Seen {
  target?: string
  body?: { Name?: string; WithDecryption?: boolean }
  signatureValid?: boolean
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function signatureIsValid(request: IncomingMessage, body: string): Promise<boolean> {
  const amzDate = String(request.headers['x-amz-date'])
  const signingDate = new Date(
    amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
  )
  const signer = new SignatureV4({
    service: 'ssm',
    region: 'eu-west-1',
    credentials,
    sha256: Hash.bind(null, 'sha256'),
  })
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      path: '/',
      headers: {
        host: String(request.headers.host),
        'content-type': String(request.headers['content-type']),
        'x-amz-target': String(request.headers['x-amz-target']),
      },
      body,
    },
    { signingDate },
  )
  return signed.headers.authorization === request.headers.authorization
}

describe('getSecureParameter', () => {
  let server: Server
  let endpoint: string
  const seen: Seen = {}
  const savedEnv = { ...process.env }

  beforeAll(async () => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    })
    delete process.env.AWS_SESSION_TOKEN
    delete process.env.AWS_PROFILE
    server = createServer((request, response) => void answer(request, response))
    async function answer(request: IncomingMessage, response: ServerResponse) {
      const body = await readBody(request)
      seen.target = String(request.headers['x-amz-target'])
      seen.body = JSON.parse(body) as Seen['body']
      seen.signatureValid = await signatureIsValid(request, body)
      response.setHeader('content-type', 'application/x-amz-json-1.1')
      if (!seen.signatureValid) {
        response.statusCode = 400
        response.end(JSON.stringify({ __type: 'InvalidSignatureException' }))
      } else if (seen.body?.Name === '/wallet-backend/test/jwt-secret') {
        response.end(JSON.stringify({ Parameter: { Name: seen.body.Name, Value: SECRET } }))
      } else {
        response.statusCode = 400
        response.end(JSON.stringify({ __type: 'ParameterNotFound' }))
      }
    }
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })

  afterAll(async () => {
    process.env = savedEnv
    await new Promise((resolve) => server.close(resolve))
  })

  it('reads a SecureString decrypted, in one request signed for SSM', async () => {
    const value = await getSecureParameter('/wallet-backend/test/jwt-secret', {
      region: 'eu-west-1',
      endpoint,
    })

    expect(value).toBe(SECRET)
    expect(seen).toEqual({
      target: 'AmazonSSM.GetParameter',
      body: { Name: '/wallet-backend/test/jwt-secret', WithDecryption: true },
      signatureValid: true,
    })
  })

  it('fails with the error type only when the parameter is missing', async () => {
    const failure = await getSecureParameter('/wallet-backend/test/missing', {
      region: 'eu-west-1',
      endpoint,
    }).catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(ParameterUnavailable)
    expect((failure as Error).message).toBe('SSM GetParameter failed: 400 ParameterNotFound')
  })
})
