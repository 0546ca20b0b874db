import { defaultProvider } from '@aws-sdk/credential-provider-node'
import { Hash } from '@smithy/core/serde'
import { SignatureV4 } from '@smithy/signature-v4'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'

// SSM's GetParameter as one signed HTTPS call. The signer and the credential chain are the ones
// the DynamoDB client already bundles; @aws-sdk/client-ssm would add about 170 KB to every
// function that verifies tokens, for this one call at cold start.

interface GetParameterOutput {
  Parameter?: { Value?: string }
}

export class ParameterUnavailable extends Error {
  constructor(status: number, type: string) {
    super(`SSM GetParameter failed: ${status} ${type}`)
    this.name = 'ParameterUnavailable'
  }
}

/** The decrypted value of a SecureString parameter. */
export async function getSecureParameter(
  name: string,
  options: { region: string; endpoint?: string },
): Promise<string | undefined> {
  const endpoint = new URL(options.endpoint ?? `https://ssm.${options.region}.amazonaws.com/`)
  const signer = new SignatureV4({
    service: 'ssm',
    region: options.region,
    credentials: defaultProvider(),
    sha256: Hash.bind(null, 'sha256'),
  })
  const request = await signer.sign({
    method: 'POST',
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : undefined,
    path: endpoint.pathname,
    headers: {
      host: endpoint.host,
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AmazonSSM.GetParameter',
    },
    body: JSON.stringify({ Name: name, WithDecryption: true }),
  })
  const response = await post(endpoint, request.headers, request.body as string)
  const payload = parsed(response.text)
  if (response.status !== 200)
    throw new ParameterUnavailable(response.status, String(payload.__type))
  return payload.Parameter?.Value
}

const TIMEOUT_MS = 3_000
const MAX_RESPONSE_BYTES = 65_536

function parsed(text: string): GetParameterOutput & { __type?: string } {
  try {
    return JSON.parse(text) as GetParameterOutput & { __type?: string }
  } catch {
    return { __type: 'an answer that is not JSON' }
  }
}

/**
 * One POST over node:http(s), not fetch: fetch loads undici on its first use, which cost the
 * quote's first request about 30 ms of a cold start when its RPC URL came from SSM (BENCHMARKS.md).
 * Bounded like the rest: no answer within TIMEOUT_MS, or an answer over MAX_RESPONSE_BYTES, fails.
 */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  const send = url.protocol === 'http:' ? httpRequest : httpsRequest
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > MAX_RESPONSE_BYTES) outgoing.destroy(new Error('SSM answered too much'))
          else chunks.push(chunk)
        })
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        response.on('error', reject)
      },
    )
    outgoing.setTimeout(TIMEOUT_MS, () => outgoing.destroy(new Error('SSM did not answer in time')))
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}
