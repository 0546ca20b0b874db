import { defaultProvider } from '@aws-sdk/credential-provider-node'
import { Hash } from '@smithy/core/serde'
import { SignatureV4 } from '@smithy/signature-v4'

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
  // fetch sets `host` itself, to the value that was signed.
  const { host: _host, ...headers } = request.headers
  const response = await fetch(endpoint, {
    method: 'POST',
    headers,
    body: request.body as string,
    signal: AbortSignal.timeout(3000),
  })
  const payload = (await response.json()) as GetParameterOutput & { __type?: string }
  if (!response.ok) throw new ParameterUnavailable(response.status, String(payload.__type))
  return payload.Parameter?.Value
}
