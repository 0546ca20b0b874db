import { Hash } from '@smithy/core/serde'
import { SignatureV4 } from '@smithy/signature-v4'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// No SSM engine runs locally, so a stand-in checks what a real endpoint checks: the SigV4
// signature over the request, for service `ssm`, with the caller's credentials; it answers
// GetParameter from `parameters` and records every request.

export const SSM_TEST_CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'test-secret-access-key',
}

export interface SsmRequest {
  target: string
  body: { Name?: string; WithDecryption?: boolean }
  signatureValid: boolean
}

export interface SsmStandIn {
  endpoint: string
  requests: SsmRequest[]
  close(): Promise<void>
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function signatureIsValid(
  request: IncomingMessage,
  body: string,
  region: string,
): Promise<boolean> {
  const amzDate = String(request.headers['x-amz-date'])
  const signingDate = new Date(
    amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
  )
  const signer = new SignatureV4({
    service: 'ssm',
    region,
    credentials: SSM_TEST_CREDENTIALS,
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

/** Starts the stand-in on loopback; callers sign with SSM_TEST_CREDENTIALS for `region`. */
export async function startSsmStandIn(
  parameters: Record<string, string>,
  region: string,
): Promise<SsmStandIn> {
  const requests: SsmRequest[] = []
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request)
      const seen: SsmRequest = {
        target: String(request.headers['x-amz-target']),
        body: JSON.parse(body) as SsmRequest['body'],
        signatureValid: await signatureIsValid(request, body, region),
      }
      requests.push(seen)
      response.setHeader('content-type', 'application/x-amz-json-1.1')
      const value = seen.body.Name === undefined ? undefined : parameters[seen.body.Name]
      if (!seen.signatureValid) {
        response.statusCode = 400
        response.end(JSON.stringify({ __type: 'InvalidSignatureException' }))
      } else if (value !== undefined) {
        response.end(JSON.stringify({ Parameter: { Name: seen.body.Name, Value: value } }))
      } else {
        response.statusCode = 400
        response.end(JSON.stringify({ __type: 'ParameterNotFound' }))
      }
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
